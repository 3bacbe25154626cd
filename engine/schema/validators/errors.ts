// Schema errors carry the gqlparser position of the offending name/directive/value.
import type { SchemaError } from '../../api.js';
import type { Pos } from '../sdl-ast.js';

export function errorAt(pos: Pos | undefined, message: string): SchemaError {
  return pos ? { message, locations: [{ line: pos.line, column: pos.column }] } : { message };
}
