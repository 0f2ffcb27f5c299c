import { CoverageFormatError, percent, type CoverageFile, type CoverageReport } from './coverage-report.ts';

type XmlNode = Record<string, unknown>;
const list = (v: unknown): XmlNode[] => (Array.isArray(v) ? (v as XmlNode[]) : v && typeof v === 'object' ? [v as XmlNode] : []);

/**
 * Cobertura XML (coverage.py `coverage xml`, JaCoCo converters, .NET coverlet): per-class `<line hits>`
 * for file figures; the root `lines-valid`/`lines-covered` (or `line-rate`) for the total.
 * Parsed with fast-xml-parser, loaded only when a Cobertura file is read.
 */
export async function readCobertura(text: string, source: string): Promise<CoverageReport> {
  const { XMLParser, XMLValidator } = await import('fast-xml-parser');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new CoverageFormatError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: false }).parse(text) as XmlNode;
  const root = doc.coverage as XmlNode | undefined;
  if (!root || typeof root !== 'object') throw new CoverageFormatError('no <coverage> root element: not a Cobertura report');

  const byFile = new Map<string, CoverageFile>();
  for (const pkg of list((root.packages as XmlNode | undefined)?.package)) {
    for (const cls of list((pkg.classes as XmlNode | undefined)?.class)) {
      const path = String(cls.filename ?? cls.name ?? '');
      const lines = list((cls.lines as XmlNode | undefined)?.line);
      const file = byFile.get(path) ?? { path, found: 0, hit: 0 };
      file.found += lines.length;
      file.hit += lines.filter((l) => Number(l.hits) > 0).length;
      byFile.set(path, file);
    }
  }
  const files = [...byFile.values()];
  let found = Number(root['lines-valid']);
  let hit = Number(root['lines-covered']);
  if (!Number.isFinite(found) || !Number.isFinite(hit)) {
    found = files.reduce((n, f) => n + f.found, 0);
    hit = files.reduce((n, f) => n + f.hit, 0);
  }
  let pct = percent(hit, found);
  if (Number.isNaN(pct) && root['line-rate'] !== undefined) pct = Math.round(Number(root['line-rate']) * 10000) / 100;
  if (Number.isNaN(pct) && files.length === 0) throw new CoverageFormatError('no line-rate, lines-valid or <line> elements');
  return { source, format: 'cobertura', found, hit, pct, files };
}
