import { basename } from 'pathe';

/** Folder names that hold tests, fixtures and mocks in the common layouts. */
const TEST_FOLDERS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'testdata',
  'test-data',
  'fixtures',
  '__fixtures__',
  '__mocks__',
  '__snapshots__',
  'e2e',
  'testing',
]);
/** File names of tests: x.test.ts, x.spec.js, x_test.go, test_x.py, XTest.java, x_spec.rb. */
const TEST_FILE = /(\.|_|-)(test|spec)s?\.[^./]+$|^test_[^/]+\.py$|Tests?\.(java|kt|cs|scala|swift)$|^conftest\.py$/;

/**
 * Whether a path is test infrastructure rather than production code: the only kind of file the
 * test-infrastructure repair route (implement → test, no review) may change.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p)) || TEST_FILE.test(basename(path));
}

const DOC_FOLDERS = new Set(['docs', 'doc', 'documentation', 'prizm-docs']);
const DOC_FILE = /\.(md|mdx|markdown|rst|adoc|txt|prizm)$/i;

/** Whether a path is documentation: what a retrospective may update after review and test. */
export function isDocumentationPath(path: string): boolean {
  return (
    path
      .split('/')
      .slice(0, -1)
      .some((p) => DOC_FOLDERS.has(p)) || DOC_FILE.test(path)
  );
}
