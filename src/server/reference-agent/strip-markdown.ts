import { Lexer, type Token, type Tokens } from 'marked';

/**
 * Markdown → plain text for text-to-speech and `altText`, using marked's lexer (the same parser
 * the widget renders with) so both agree on what is markup. Raw HTML is dropped, but for a `<br>`,
 * which is a line break (language models write it in table cells), not nothing: "x<br>y" reads
 * "x", "y", not "xy". A list starts on a line of its own, so a nested list's first item is not
 * run into the item it is in ("a", "b", not "ab").
 */
export function stripMarkdown(markdown: string): string {
  return plain(Lexer.lex(markdown, { gfm: true, breaks: true })).replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
}

function plain(tokens: readonly Token[]): string {
  return tokens.map((token) => {
    switch (token.type) {
      case 'html':
        return /^<br\s*\/?>$/i.test(token.raw.trim()) ? '\n' : '';
      case 'space':
      case 'br':
        return '\n';
      case 'hr':
        return '\n';
      case 'list':
        return `\n${(token as Tokens.List).items.map((item) => plain(item.tokens)).join('\n')}\n`;
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => cells.map((cell) => plain(cell.tokens)).join(', ');
        return `${[row(table.header), ...table.rows.map(row)].join('\n')}\n`;
      }
      case 'paragraph':
      case 'heading':
      case 'blockquote':
        return `${plain((token as Tokens.Paragraph).tokens ?? [])}\n`;
      default:
        if ('tokens' in token && token.tokens) return plain(token.tokens);
        return 'text' in token && typeof token.text === 'string' ? token.text : '';
    }
  }).join('');
}
