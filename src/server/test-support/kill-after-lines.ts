// The kill -9 tests' writer process: runs a fixture script (through tsx) that prints one line per
// write reported done, and kills it without warning (SIGKILL) once `count` lines have come.
import { spawn } from 'node:child_process';

/** Runs `script` with `args`, kills it -9 after `count` lines of output; resolves with the lines. */
export async function killAfterLines(
  script: string,
  args: readonly string[],
  count: number,
): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      lines.push(...complete);
      // Killed in the middle of its work, without warning.
      if (lines.length >= count && !child.killed) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer stopped by itself (${code})`));
    });
  });
  await new Promise((resolve) => child.once('close', resolve));
  return lines;
}
