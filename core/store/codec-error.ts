/** A data file's text cannot be turned into a value; carries the line for the one-line message. */
export class CodecError extends Error {
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, line?: number, column?: number) {
    super(line === undefined ? message : `${message} (line ${line}, column ${column ?? 1})`);
    this.name = 'CodecError';
    this.line = line;
    this.column = column;
  }
}
