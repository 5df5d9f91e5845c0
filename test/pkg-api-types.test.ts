/**
 * A TypeScript user can name every type the public API makes them hold or
 * pass: each type an exported declaration mentions (an option bag, a
 * callback's argument, a class's base or interface, a type alias's parts) is
 * exported from one of the package's entry points (package.json `exports`),
 * so that `import type { ExplanationOptions } from "evalframe"` works and
 * nobody writes `Parameters<typeof explanation>[2]`.
 *
 * Read from src/ with the compiler API, the way the .d.ts files are emitted:
 * signatures only (parameters, return types, members that are not private,
 * heritage clauses), never function bodies. A declaration without a type
 * annotation is judged by the type the checker infers for it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";

const ROOT = path.join(__dirname, "..");
const SRC = path.join(ROOT, "src");

/** package.json's `exports` entries that hold code, as their src/ files: [subpath, file]. */
function entryPoints(): [string, string][] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  const entries: [string, string][] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== "object" || target === null) continue;
    const types = (target as { types?: unknown }).types;
    assert.equal(typeof types, "string", `package.json exports["${subpath}"] has no "types"`);
    const file = path.join(ROOT, (types as string).replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"));
    entries.push([subpath, file]);
  }
  return entries;
}

/** Where each type an exported declaration mentions is declared, for the ones no entry point exports. */
interface Unnamed {
  /** `ExplanationOptions (frame/statements.ts)`. */
  type: string;
  /** The exported names whose declarations mention it, as `subpath:name`. */
  usedBy: string[];
}

/** The types that the public API's declarations mention but no entry point exports. */
function unnamedTypes(entries: readonly [string, string][]): Unnamed[] {
  const options = JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  const parsed = ts.convertCompilerOptionsFromJson(options.compilerOptions, ROOT);
  const program = ts.createProgram(
    entries.map((e) => e[1]),
    { ...parsed.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const ours = (decl: ts.Declaration): boolean => {
    const file = decl.getSourceFile().fileName;
    return file.startsWith(SRC + path.sep) || file.startsWith(SRC + "/");
  };

  const exported = new Map<ts.Symbol, string>();
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file);
    assert.ok(source !== undefined, `${file} (package.json exports["${subpath}"]) does not exist`);
    const module = checker.getSymbolAtLocation(source);
    assert.ok(module !== undefined, `${file} is not a module`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = resolve(symbol);
      if (!exported.has(target)) exported.set(target, `${subpath}:${symbol.name}`);
    }
  }

  const missing = new Map<string, Set<string>>();
  const visited = new Set<ts.Node>();

  const mention = (symbol: ts.Symbol | undefined, from: string): void => {
    if (symbol === undefined) return;
    const target = resolve(symbol);
    for (const decl of target.declarations ?? []) {
      if (!ours(decl) || ts.isTypeParameterDeclaration(decl) || ts.isParameter(decl)) continue;
      if (!exported.has(target)) {
        const key = `${target.name} (${path.relative(SRC, decl.getSourceFile().fileName).split(path.sep).join("/")})`;
        if (!missing.has(key)) missing.set(key, new Set());
        missing.get(key)!.add(from);
      }
      visitDeclaration(decl, from);
    }
  };

  /** A type the checker inferred: its alias or its named symbol, and a few levels of its arguments. */
  const mentionType = (type: ts.Type, from: string, depth = 0): void => {
    if (depth > 3) return;
    if (type.aliasSymbol) mention(type.aliasSymbol, from);
    else if (type.symbol && !(type.symbol.flags & (ts.SymbolFlags.TypeLiteral | ts.SymbolFlags.ObjectLiteral | ts.SymbolFlags.Function | ts.SymbolFlags.Method))) {
      mention(type.symbol, from);
    }
    if (type.isUnion() || type.isIntersection()) for (const part of type.types) mentionType(part, from, depth + 1);
    for (const argument of type.aliasTypeArguments ?? (type.flags & ts.TypeFlags.Object ? checker.getTypeArguments(type as ts.TypeReference) ?? [] : [])) {
      mentionType(argument, from, depth + 1);
    }
  };

  /** Every type reference in a type node (or a heritage clause). */
  const walkType = (node: ts.Node, from: string): void => {
    if (ts.isTypeReferenceNode(node)) mention(checker.getSymbolAtLocation(node.typeName), from);
    else if (ts.isExpressionWithTypeArguments(node)) mention(checker.getSymbolAtLocation(node.expression), from);
    else if (ts.isTypeQueryNode(node)) mention(checker.getSymbolAtLocation(node.exprName), from);
    else if (ts.isImportTypeNode(node) && node.qualifier) mention(checker.getSymbolAtLocation(node.qualifier), from);
    ts.forEachChild(node, (child) => walkType(child, from));
  };

  const isPrivate = (member: ts.Node): boolean =>
    ts.canHaveModifiers(member) && (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) ||
    ((member as ts.NamedDeclaration).name !== undefined && ts.isPrivateIdentifier((member as ts.NamedDeclaration).name!));

  /** A signature's parts: type parameters, parameters and the return type (inferred when not written). */
  const walkSignature = (node: ts.SignatureDeclaration, from: string): void => {
    for (const parameter of node.typeParameters ?? []) walkType(parameter, from);
    for (const parameter of node.parameters) {
      if (parameter.type) walkType(parameter.type, from);
      else mentionType(checker.getTypeAtLocation(parameter), from);
    }
    if (node.type) walkType(node.type, from);
    else if (!ts.isConstructorDeclaration(node) && !ts.isSetAccessorDeclaration(node)) {
      const signature = checker.getSignatureFromDeclaration(node);
      if (signature) mentionType(checker.getReturnTypeOfSignature(signature), from);
    }
  };

  function visitDeclaration(decl: ts.Node, from: string): void {
    if (visited.has(decl)) return;
    visited.add(decl);
    if (ts.isFunctionDeclaration(decl) || ts.isMethodSignature(decl) || ts.isCallSignatureDeclaration(decl)) {
      walkSignature(decl, from);
    } else if (ts.isClassDeclaration(decl)) {
      for (const parameter of decl.typeParameters ?? []) walkType(parameter, from);
      for (const clause of decl.heritageClauses ?? []) walkType(clause, from);
      for (const member of decl.members) {
        if (isPrivate(member)) continue;
        if (ts.isConstructorDeclaration(member)) {
          for (const parameter of member.parameters) if (!isPrivate(parameter) && parameter.type) walkType(parameter.type, from);
        } else if (ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member)) {
          walkSignature(member, from);
        } else if (ts.isPropertyDeclaration(member)) {
          if (member.type) walkType(member.type, from);
          else mentionType(checker.getTypeAtLocation(member), from);
        }
      }
    } else if (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) {
      walkType(decl, from);
    } else if (ts.isVariableDeclaration(decl)) {
      if (decl.type) walkType(decl.type, from);
      else mentionType(checker.getTypeAtLocation(decl), from);
    }
  }

  for (const [symbol, name] of exported) for (const decl of symbol.declarations ?? []) if (ours(decl)) visitDeclaration(decl, name);
  return [...missing].map(([type, usedBy]) => ({ type, usedBy: [...usedBy].sort() })).sort((a, b) => a.type.localeCompare(b.type));
}

describe("the public API's types, as a TypeScript user names them", () => {
  const entries = entryPoints();

  it("exports every type its declarations mention", () => {
    const unnamed = unnamedTypes(entries);
    const shown = unnamed.map((u) => `  ${u.type}, mentioned by ${u.usedBy.slice(0, 3).join(", ")}${u.usedBy.length > 3 ? ` and ${u.usedBy.length - 3} more` : ""}`);
    assert.deepEqual(shown, [], `types the public API mentions but no entry point exports (export them from the entry point of what mentions them):\n${shown.join("\n")}`);
  });
});
