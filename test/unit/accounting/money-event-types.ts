import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const CENTS = /Cents$/;

/**
 * Every event type whose payload, as the source declares or builds it, has a
 * field in cents: `{ type: typeof XEvents.Name; data: { ...Cents } }` in a type,
 * or `{ type: XEvents.Name, data: { ...Cents } }` in an append. Read from the
 * syntax alone, so a new money event anywhere under src/ is found without
 * anyone listing it.
 */
export function eventTypesWithCents(srcRoot: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(srcRoot)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const members = typeLiteralOrObjectMembers(node);
      if (members) {
        const typeName = eventTypeNameOf(members);
        const data = members.get('data');
        if (typeName && data && hasCentsField(data)) found.set(typeName, path.relative(srcRoot, file));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
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

function hasCentsField(node: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (
      (ts.isPropertySignature(n) || ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) &&
      ts.isIdentifier(n.name)
    )
      found = CENTS.test(n.name.text);
    if (!found) ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
