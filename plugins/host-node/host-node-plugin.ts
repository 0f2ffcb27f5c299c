import { definePlugin } from '../../core/plugin/define.ts';

/**
 * sluice:host-node, the plugin that provides the Host port on Node. The CLI chooses it (it is the
 * composition root) by calling createNodeHost; there is nothing to register on a kernel, so setup is empty.
 */
export const hostNodePlugin = definePlugin({
  name: 'sluice:host-node',
  setup() {},
});
