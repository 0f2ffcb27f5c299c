// Types for the parts of @ericcornelissen/bash-parser's AST the guard reads (the package ships none).
declare module '@ericcornelissen/bash-parser' {
  export interface ShellNode {
    type: string;
    [key: string]: unknown;
  }
  export default function parse(source: string, options?: { mode?: 'bash' | 'posix' }): ShellNode;
}
