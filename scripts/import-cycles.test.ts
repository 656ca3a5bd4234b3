// No two files of src/ import each other, directly or around a circle, type-only imports included:
// a circle means neither file can be read, tested or moved without the other, and the one-way
// zones (import-zones.test.ts) only see arrows between folders, never inside one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const EXTENSIONS = ['.ts', '.tsx', '/index.ts'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files of `files` that `file` imports or re-exports, statically or with `import()`. */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = resolve(dirname(file), fileName);
    const found = [base, ...EXTENSIONS.map((ext) => base + ext)].find((path) => files.has(path));
    return found ? [found] : [];
  });
}

/** Every circle of the import graph (its strongly connected components of two files or more). */
function importCircles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file, known)]));
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  for (const start of files) {
    if (index.has(start)) continue;
    const work: Array<{ file: string; next: number }> = [{ file: start, next: 0 }];
    index.set(start, index.size);
    low.set(start, index.get(start)!);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.file)!;
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, index.size);
          low.set(target, index.get(target)!);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const circle: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        circle.push(member);
      } while (member !== frame.file);
      if (circle.length > 1) circles.push(circle.map((file) => relative(ROOT, file)).sort());
    }
  }
  return circles;
}

describe('import circles', () => {
  it('finds none in src/', () => {
    expect(importCircles(sourceFiles(join(ROOT, 'src')))).toEqual([]);
  });

  it('finds a pair of files that import each other, type imports included', () => {
    const fixtures = join(ROOT, 'scripts', 'import-cycles-fixtures');
    expect(importCircles(sourceFiles(fixtures))).toEqual([
      ['scripts/import-cycles-fixtures/one.ts', 'scripts/import-cycles-fixtures/two.ts'],
    ]);
  });
});
