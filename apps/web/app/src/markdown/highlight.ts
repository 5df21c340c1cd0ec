import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';

// highlight.js core with the languages agents paste most (a few KiB each, not the 190 of the
// full build). A fence naming another language, or none, is shown escaped without colours:
// guessing the language costs time and colours prose wrongly.
const LANGUAGES = { bash, diff, go, javascript, json, python, rust, typescript, yaml } as const;
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['patch'], { languageName: 'diff' });

/**
 * The highlighted HTML of `code` (highlight.js escapes the code itself), or '' when the fence
 * names no registered language, which tells markdown-it to escape it plainly.
 */
export function highlightCode(code: string, info: string): string {
  const lang = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (!lang || !hljs.getLanguage(lang)) return '';
  try {
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return '';
  }
}
