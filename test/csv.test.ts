import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CsvStreamParser, escapeFormula, MalformedFileError, parseCsv, unescapeFormula } from "../src/dataset/csv";
import * as path from "node:path";
import { formatCsv } from "../src/dataset/export";
import { loadDataset, toCSV } from "../src/index";
import { tempDir } from "./support/files";

describe("parseCsv (RFC 4180)", () => {
  it("reads quoted fields holding commas, doubled quotes and line breaks", () => {
    const text = 'id,answer,note\r\n1,"Paris, France","He said ""bonjour"""\r\n2,"line one\nline two",\n';
    const { header, records } = parseCsv(text);
    assert.deepEqual(header, ["id", "answer", "note"]);
    assert.deepEqual(records.map((r) => r.fields), [
      ["1", "Paris, France", 'He said "bonjour"'],
      ["2", "line one\nline two", ""],
    ]);
    assert.deepEqual(records.map((r) => r.line), [2, 3]);
  });

  it("keeps CRLF inside quotes, accepts a missing final line break and skips a BOM", () => {
    const { header, records } = parseCsv('\uFEFFa,b\n"x\r\ny",2');
    assert.deepEqual(header, ["a", "b"]);
    assert.deepEqual(records[0]?.fields, ["x\r\ny", "2"]);
  });

  it("keeps Korean text, emoji, spaces and empty fields as they are", () => {
    const { records } = parseCsv("q,a\n 세종대왕 ,🚀 \n,\n");
    assert.deepEqual(records.map((r) => r.fields), [[" 세종대왕 ", "🚀 "], ["", ""]]);
  });

  it("skips blank lines between records in a multi-column file", () => {
    const { records } = parseCsv("a,b\n1,2\n\n3,4\n\n");
    assert.deepEqual(records.map((r) => r.fields), [["1", "2"], ["3", "4"]]);
    assert.deepEqual(records.map((r) => r.line), [2, 4]);
  });

  it("reads a spreadsheet's export with empty, unnamed columns after the last named one, and leaves them out", () => {
    const { header, records } = parseCsv("id,score,,\r\nq1,0.5,,\r\nq2,1\r\n");
    assert.deepEqual(header, ["id", "score"]);
    assert.deepEqual(records.map((r) => r.fields), [["q1", "0.5"], ["q2", "1"]]);
  });

  it("reads another delimiter", () => {
    assert.deepEqual(parseCsv("a\tb\nx,y\tz\n", { delimiter: "\t" }).records[0]?.fields, ["x,y", "z"]);
  });

  const malformed: [string, string, number, RegExp][] = [
    ["an unclosed quote (line where it opened)", 'a,b\n1,2\n3,"never closed\nmore\n', 3, /never closed/],
    ["a stray quote inside an unquoted field", 'a,b\n1,say "hi"\n', 2, /quote inside an unquoted field/],
    ["text after a closing quote", 'a,b\n1,"x"y\n', 2, /after a closing quote/],
    ["too many fields (after a multi-line record)", 'a,b\n"x\ny",2\n1,2,3\n', 4, /3 fields but the header has 2/],
    ["too few fields", "a,b,c\n1,2\n", 2, /2 fields but the header has 3/],
    ["a duplicate header name", "a,b,a\n1,2,3\n", 1, /names column "a" twice/],
    ["an unnamed header column", "a,,c\n1,2,3\n", 1, /column 2 of the header has no name/],
    ["a value under an unnamed column at the end", "a,b,\n1,2,\n3,4,x\n", 3, /value in column 3 \("x"\), which the header gives no name; name that column/],
    ["a header of no names", ",,\n1,2,3\n", 1, /the header row names no column/],
    ["an empty file", "", 1, /file is empty/],
  ];
  for (const [what, text, line, message] of malformed) {
    it(`names the line of ${what}`, () => {
      assert.throws(
        () => parseCsv(text, { file: "data.csv" }),
        (error: unknown) => {
          assert.ok(error instanceof MalformedFileError);
          assert.equal(error.line, line);
          assert.match(error.message, new RegExp(`^data\\.csv, line ${line}: `));
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});

describe("formula escaping", () => {
  it("prefixes every trigger character and nothing else", () => {
    for (const s of ["=SUM(A1)", "+1", "-40 degrees", "@user", "\tTab", "\rCR", "\nLF"]) {
      assert.equal(escapeFormula(s), `'${s}`);
    }
    for (const s of ["plain", "", " =not first", "'quoted", "1+1", "a-b"]) {
      assert.equal(escapeFormula(s), s);
    }
  });

  it("is undone exactly, even for text that already starts with apostrophes", () => {
    for (const s of ["=1", "'=1", "''=1", "'", "'plain", "-", "@", "x", "", "'\n"]) {
      assert.equal(unescapeFormula(escapeFormula(s)), s, JSON.stringify(s));
    }
  });
});

describe("formatCsv", () => {
  it("quotes only what RFC 4180 requires and writes NaN and null as empty", () => {
    const text = formatCsv([
      { q: 'say "hi", please', a: "line\nbreak", score: 0.5, n: 3, ok: true },
      { q: "plain", a: null, score: Number.NaN, n: -2, ok: false },
    ]);
    assert.equal(text, 'q,a,score,n,ok\n"say ""hi"", please","line\nbreak",0.5,3,true\nplain,,,-2,false\n');
  });

  it("escapes formula-like text but never numbers, and can be told not to", () => {
    const rows = [{ text: "=HYPERLINK(\"x\")", value: -1.5 }, { text: "-3", value: 2 }];
    assert.equal(formatCsv(rows), "text,value\n\"'=HYPERLINK(\"\"x\"\")\",-1.5\n\"'-3\",2\n");
    assert.equal(formatCsv(rows, { escapeFormulas: false }), 'text,value\n"=HYPERLINK(""x"")",-1.5\n-3,2\n');
  });

  it("leaves the header out on request, for rows appended to a file that has one", () => {
    const rows = [{ q: "a", n: 1 }, { q: "b, c", n: 2 }];
    assert.equal(formatCsv(rows, { header: false }), 'a,1\n"b, c",2\n');
    assert.equal(formatCsv(rows) + formatCsv([{ q: "d", n: 3 }], { header: false, lineEnding: "\r\n" }), 'q,n\na,1\n"b, c",2\nd,3\r\n');
    assert.equal(formatCsv([], { header: false, columns: [] }), "", "no rows and no header: nothing");
  });

  it("writes lists and objects as JSON text", () => {
    assert.equal(formatCsv([{ ctx: ["a", "b, c"], meta: { k: 1 } }]), 'ctx,meta\n"[""a"",""b, c""]","{""k"":1}"\n');
  });

  it("writes numbers so that they read back exactly", () => {
    const values = [0.1 + 0.2, 1e-300, -0, 123456789.12345679, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const text = formatCsv(values.map((v) => ({ v })));
    const back = parseCsv(text).records.map((r) => Number(r.fields[0]));
    assert.deepEqual(back, values.map((v) => (Object.is(v, -0) ? 0 : v)));
  });

  it("offers CRLF, a BOM for Excel, and a chosen column order", () => {
    const text = formatCsv([{ a: 1, b: "x" }], { lineEnding: "\r\n", bom: true, columns: ["b", "a"] });
    assert.equal(text, "\uFEFFb,a\r\nx,1\r\n");
  });

  it("names the columns when asked for one that does not exist", () => {
    assert.throws(() => formatCsv([{ a: 1 }], { columns: ["z"] }), /no column "z"; the columns are "a"/);
  });

  it("refuses options that would write a file that does not read back, and writes no column as an empty file", async () => {
    assert.throws(() => formatCsv([{ id: "a", x: 1 }], { columns: ["id", "x", "id"] }), /^Error: toCSV: columns names "id" twice; a CSV header with a column twice does not read back$/);
    assert.throws(() => formatCsv([{ a: 1 }], { lineEnding: "\n\n" as "\n" }), /lineEnding must be "\\n" or "\\r\\n", got "\\n\\n"/);
    assert.throws(() => formatCsv([{ a: 1 }], { delimiter: '"' }), /delimiter must be one character other than a quote or a line break/);
    assert.equal(formatCsv([{ a: 1 }], { delimiter: "\t" }), "a\n1\n");
    // Nothing to write: an empty file (loading says "the file is empty"), not a line with a header of no name.
    assert.equal(formatCsv([]), "");
    assert.equal(formatCsv([{}, {}]), "");
    const dir = tempDir();
    await toCSV([], path.join(dir, "none.csv"));
    await assert.rejects(loadDataset(path.join(dir, "none.csv"), { required: [] }), /the file is empty; expected a header row/);
  });
});

describe("a header split by semicolons", () => {
  const parse = (pieces: string[]) => {
    const parser = new CsvStreamParser({ semicolonsIfHeaderHasThem: true });
    const records = [...pieces.flatMap((p) => parser.push(p)), ...parser.end()];
    return { header: parser.header, records: records.map((r) => r.fields), semicolons: parser.readSemicolons };
  };

  it("is found on the header's whole line, however the text is cut into pieces, after a BOM, with CRLF", () => {
    const text = '\ufeffquestion;answer;"reference; short"\r\nWhat?;"yes; 1,5";no\r\n';
    for (const at of [1, 3, 9, 20, text.length - 1]) {
      const read = parse([text.slice(0, at), text.slice(at)]);
      assert.deepEqual(read, { header: ["question", "answer", "reference; short"], records: [["What?", "yes; 1,5", "no"]], semicolons: true }, `cut at ${at}`);
    }
  });

  it("is not taken from a line with a comma, nor from a first line that ends inside a quoted name", () => {
    assert.deepEqual(parse(["question,answer;notes\nq,a;b\n"]).header, ["question", "answer;notes"]);
    assert.deepEqual(parse(['"user;\ninput",id\nx,1\n']), { header: ["user;\ninput", "id"], records: [["x", "1"]], semicolons: false });
  });
});
