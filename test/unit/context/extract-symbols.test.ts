import { extractSymbols, languageOf } from '../../../src/context/extract-symbols.js';

const names = (path: string, content: string) =>
  extractSymbols(path, content).map((s) => `${s.kind} ${s.name}${s.topLevel ? '' : ' (nested)'}`);

describe('extractSymbols', () => {
  it('finds TypeScript declarations and methods', () => {
    const ts = [
      'import x from "y";',
      'export async function computeRefund(order: Order) {',
      '  if (x) {',
      '}',
      'export default class RefundPolicy {',
      '  async apply(order: Order): Promise<void> {',
      '  }',
      '}',
      'export interface Order {}',
      'export type Money = number;',
      'export const MAX_REFUND = 10;',
      'enum Mode { A }',
    ].join('\n');
    expect(names('src/refund.ts', ts)).toEqual([
      'function computeRefund',
      'class RefundPolicy',
      'method apply (nested)',
      'interface Order',
      'type Money',
      'const MAX_REFUND',
      'enum Mode',
    ]);
  });

  it('finds Python, Go, Rust, Java, Ruby and Markdown definitions', () => {
    expect(
      names(
        'a.py',
        'class Cart:\n    def total(self):\n        pass\ndef main():\n    pass\nTIMEOUT = 3',
      ),
    ).toEqual(['class Cart', 'def total (nested)', 'def main', 'const TIMEOUT']);
    expect(
      names('a.go', 'func (s *Server) Start() error {\n}\ntype Config struct {\n}\nfunc main() {}'),
    ).toEqual(['func Start', 'type Config', 'func main']);
    expect(
      names(
        'a.rs',
        'pub struct Parser {}\nimpl Display for Parser {\n    pub fn fmt(&self) {}\n}\npub(crate) async fn run() {}',
      ),
    ).toEqual(['struct Parser', 'impl Parser', 'fn fmt (nested)', 'fn run']);
    expect(
      names(
        'A.java',
        'public final class Billing {\n    public static int charge(int x) {\n    }\n}',
      ),
    ).toEqual(['class Billing', 'method charge (nested)']);
    expect(names('a.rb', 'module Shop\n  class Cart\n    def total?\n    end\n  end\nend')).toEqual(
      ['module Shop', 'class Cart (nested)', 'def total? (nested)'],
    );
    expect(names('README.md', '# Title\n\n## Install\n\n### Detail')).toEqual([
      'heading Title',
      'heading Install',
      'heading Detail (nested)',
    ]);
  });

  it('knows languages by extension and skips unknown ones', () => {
    expect(languageOf('src/App.TSX')).toBe('typescript');
    expect(languageOf('Makefile')).toBeUndefined();
    expect(extractSymbols('data.csv', 'function x() {}')).toEqual([]);
  });
});
