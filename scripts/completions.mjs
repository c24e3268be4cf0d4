// Writes completions/ from the built command tree (run after `npm run build`).
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';

const files = { bash: 'sct.bash', zsh: '_sct', fish: 'sct.fish' };
mkdirSync('completions', { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, ['bin/sct.js', 'completion', shell], { encoding: 'utf8' });
  writeFileSync(`completions/${file}`, script);
}
console.log('completions/ updated');
