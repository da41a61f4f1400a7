import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const CENTS = /Cents$/;

/**
 * Every event type whose payload, as the source declares or builds it, has a
 * field in cents: `{ type: typeof XEvents.Name; data: { ...Cents } }` in a type,
 * or `{ type: XEvents.Name, data: { ...Cents } }` in an append. A payload typed
 * through named types (`data: AutoTopUpSettings & { configuredAt: string }`)
 * is read through their declarations anywhere under src/. Read from the
 * syntax alone, so a new money event anywhere under src/ is found without
 * anyone listing it.
 */
export function eventTypesWithCents(srcRoot: string): Map<string, string> {
  const sources = sourceFiles(srcRoot).map((file) => ({
    file,
    source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
  }));
  const declarations = namedTypeDeclarations(sources.map((s) => s.source));
  const found = new Map<string, string>();
  for (const { file, source } of sources) {
    const visit = (node: ts.Node): void => {
      const members = typeLiteralOrObjectMembers(node);
      if (members) {
        const typeName = eventTypeNameOf(members);
        const data = members.get('data');
        if (typeName && data && hasCentsField(data, declarations)) found.set(typeName, path.relative(srcRoot, file));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Type aliases and interfaces by name (a name declared in several files keeps every declaration). */
function namedTypeDeclarations(sources: ts.SourceFile[]): Map<string, ts.Node[]> {
  const declarations = new Map<string, ts.Node[]>();
  const visit = (node: ts.Node): void => {
    const declared = ts.isTypeAliasDeclaration(node) ? node.type : ts.isInterfaceDeclaration(node) ? node : null;
    if (declared && (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)))
      declarations.set(node.name.text, [...(declarations.get(node.name.text) ?? []), declared]);
    ts.forEachChild(node, visit);
  };
  for (const source of sources) visit(source);
  return declarations;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function typeLiteralOrObjectMembers(node: ts.Node): Map<string, ts.Node> | null {
  const members = new Map<string, ts.Node>();
  if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
    for (const m of node.members)
      if (ts.isPropertySignature(m) && m.type && ts.isIdentifier(m.name)) members.set(m.name.text, m.type);
    return members;
  }
  if (ts.isObjectLiteralExpression(node)) {
    for (const p of node.properties)
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) members.set(p.name.text, p.initializer);
    return members;
  }
  return null;
}

/** `typeof XEvents.Name` or `XEvents.Name`, where X...Events is a catalogue constant. */
function eventTypeNameOf(members: Map<string, ts.Node>): string | null {
  const type = members.get('type');
  if (!type) return null;
  const expression = ts.isTypeQueryNode(type) ? type.exprName : type;
  if (ts.isQualifiedName(expression) && ts.isIdentifier(expression.left) && /Events$/.test(expression.left.text))
    return expression.right.text;
  if (
    ts.isPropertyAccessExpression(expression) &&
    ts.isIdentifier(expression.expression) &&
    /Events$/.test(expression.expression.text)
  )
    return expression.name.text;
  return null;
}

/** A field in cents anywhere in the payload, following named types to their declarations (each once). */
function hasCentsField(node: ts.Node, declarations: Map<string, ts.Node[]>): boolean {
  let found = false;
  const followed = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (
      (ts.isPropertySignature(n) || ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) &&
      ts.isIdentifier(n.name)
    )
      found = CENTS.test(n.name.text);
    if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && !followed.has(n.typeName.text)) {
      followed.add(n.typeName.text);
      for (const declared of declarations.get(n.typeName.text) ?? []) visit(declared);
    }
    if (!found) ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
