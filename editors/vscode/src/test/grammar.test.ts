// The TextMate grammar the extension contributes for TOML, tokenized by the same engine VS Code
// uses (vscode-textmate with the Oniguruma WebAssembly build), so that a broken pattern fails here
// instead of leaving a modder's files uncoloured.

import { strict as assert } from "assert";
import * as fs from "fs";
import * as path from "path";
import { test } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";

const root = path.join(__dirname, "..", "..");

async function grammar(): Promise<textmate.IGrammar> {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) => {
      if (scopeName !== "source.toml") return null;
      const file = path.join(root, "syntaxes", "toml.tmLanguage.json");
      return textmate.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
    },
  });
  const g = await registry.loadGrammar("source.toml");
  assert.ok(g, "the grammar loads");
  return g;
}

/** Each token of `text` as `"token text" innermost-scope`, per line, whitespace-only tokens left out. */
async function tokens(text: string): Promise<string[][]> {
  const g = await grammar();
  let stack = textmate.INITIAL;
  const out: string[][] = [];
  for (const line of text.split("\n")) {
    const r = g.tokenizeLine(line, stack);
    out.push(
      r.tokens
        .map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }))
        .filter((t) => t.text.trim().length > 0)
        .map((t) => `${t.text.trim()} ${t.scopes[t.scopes.length - 1]}`),
    );
    stack = r.ruleStack;
  }
  return out;
}

/** The innermost scope of the first token whose text is `word` on line `n` (0-based). */
function scopeOf(lines: string[][], n: number, word: string): string | undefined {
  return lines[n].find((t) => t.startsWith(`${word} `))?.slice(word.length + 1);
}

test("the manifest contributes the toml language with its configuration and this grammar", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const lang = manifest.contributes.languages.find((l: { id: string }) => l.id === "toml");
  assert.deepEqual(lang.extensions, [".toml"]);
  assert.ok(lang.aliases.includes("TOML"));
  const config = JSON.parse(fs.readFileSync(path.join(root, lang.configuration), "utf8"));
  assert.equal(config.comments.lineComment, "#");
  assert.deepEqual(config.brackets, [["[", "]"], ["{", "}"]]);
  assert.ok(config.autoClosingPairs.some((p: { open: string }) => p.open === '"'));
  const g = manifest.contributes.grammars.find((x: { language: string }) => x.language === "toml");
  assert.equal(g.scopeName, "source.toml");
  assert.ok(fs.existsSync(path.join(root, g.path)), g.path);
  // Every shipped file is in the package: .vscodeignore must not leave them out.
  const ignore = fs.readFileSync(path.join(root, ".vscodeignore"), "utf8");
  assert.ok(!/^syntaxes|^language-configuration/m.test(ignore));
});

test("headers, keys, strings, numbers, booleans, dates and comments get their scopes", async () => {
  const lines = await tokens(
    [
      "# a comment",
      "[[loot_tables]]",
      'id = "core:floor_3_table" # trailing',
      "weight = 1_000",
      "chance = 0.25",
      "hex = 0xff",
      "enabled = true",
      "when = 1979-05-27T07:32:00Z",
      'stats.armor = { min = 2, "max" = 4 }',
      "tags = ['a', 'b']",
      "[balance.\"odd key\"]",
      'escaped = "tab\\tend"',
    ].join("\n"),
  );
  assert.equal(scopeOf(lines, 0, "#"), "punctuation.definition.comment.toml");
  assert.ok(lines[0].some((t) => t.startsWith("a comment comment.line.number-sign.toml")), lines[0].join(" | "));
  assert.equal(scopeOf(lines, 1, "[["), "punctuation.definition.array.table.toml");
  assert.match(scopeOf(lines, 1, "loot_tables") ?? "", /entity\.name\.section\.toml/);
  assert.equal(scopeOf(lines, 2, "id"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 2, "="), "punctuation.separator.key-value.toml");
  assert.equal(scopeOf(lines, 2, "core:floor_3_table"), "string.quoted.double.basic.line.toml");
  assert.ok(lines[2].some((t) => t.endsWith("comment.line.number-sign.toml") && t.startsWith("trailing")), lines[2].join(" | "));
  assert.equal(scopeOf(lines, 3, "1_000"), "constant.numeric.toml");
  assert.equal(scopeOf(lines, 4, "0.25"), "constant.numeric.toml");
  assert.equal(scopeOf(lines, 5, "0xff"), "constant.numeric.integer.hex.toml");
  assert.equal(scopeOf(lines, 6, "true"), "constant.language.boolean.toml");
  assert.equal(scopeOf(lines, 7, "1979-05-27T07:32:00Z"), "constant.other.time.datetime.toml");
  assert.equal(scopeOf(lines, 8, "stats"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 8, "armor"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 8, "min"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 8, "max"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 8, "2"), "constant.numeric.toml");
  assert.equal(scopeOf(lines, 8, "{"), "punctuation.definition.inline-table.begin.toml");
  assert.equal(scopeOf(lines, 9, "a"), "string.quoted.single.literal.line.toml");
  assert.equal(scopeOf(lines, 9, "["), "punctuation.definition.array.begin.toml");
  assert.equal(scopeOf(lines, 10, "balance"), "entity.name.section.toml");
  assert.equal(scopeOf(lines, 10, "odd key"), "support.type.property-name.toml");
  assert.equal(scopeOf(lines, 11, "\\t"), "constant.character.escape.toml");
});

test("multi-line strings and arrays carry their scope over lines, and a header ends neither early", async () => {
  const lines = await tokens(['text = """', "[not a header]", '"""', "list = [", "  1,", "  [2, 3],", "]", "[[items]]"].join("\n"));
  assert.equal(scopeOf(lines, 1, "[not a header]"), "string.quoted.triple.basic.block.toml");
  assert.equal(scopeOf(lines, 2, '"""'), "punctuation.definition.string.end.toml");
  assert.equal(scopeOf(lines, 4, "1"), "constant.numeric.toml");
  assert.equal(scopeOf(lines, 5, "["), "punctuation.definition.array.begin.toml", "a nested array is no table header");
  assert.equal(scopeOf(lines, 6, "]"), "punctuation.definition.array.end.toml");
  assert.equal(scopeOf(lines, 7, "[["), "punctuation.definition.array.table.toml");
});
