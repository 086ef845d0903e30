// Finds user-visible text written straight into JSX instead of coming from t(). It reads the
// source with the TypeScript compiler, so formatting, comments and strings that are only compared
// or used as class names never trigger it; only text that can end up on screen does.
import ts from "typescript";

export interface LiteralTextViolation {
  file: string;
  line: number;
  text: string;
  where: string;
}

/** Attributes whose values a person reads (or a screen reader speaks). */
const VISIBLE_ATTRIBUTES = new Set([
  "placeholder",
  "title",
  "aria-label",
  "aria-description",
  "alt",
  "label",
]);
const HAS_LETTER = /\p{L}/u;

/** The string literals an expression can evaluate to, i.e. the ones that may be rendered. */
function renderedLiterals(expression: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
    return [expression];
  if (ts.isTemplateExpression(expression))
    return [expression.head, ...expression.templateSpans.map((span) => span.literal)];
  if (ts.isParenthesizedExpression(expression)) return renderedLiterals(expression.expression);
  if (ts.isConditionalExpression(expression)) {
    return [...renderedLiterals(expression.whenTrue), ...renderedLiterals(expression.whenFalse)];
  }
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken)
      return renderedLiterals(expression.right);
    if (
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken
    ) {
      return [...renderedLiterals(expression.left), ...renderedLiterals(expression.right)];
    }
  }
  return [];
}

function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
    return node.text;
  return "";
}

function attributeName(attribute: ts.JsxAttribute): string {
  return attribute.name.getText();
}

export function scanJsxSource(file: string, source: string): LiteralTextViolation[] {
  const sourceFile = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const violations: LiteralTextViolation[] = [];
  const report = (node: ts.Node, text: string, where: string) => {
    if (!HAS_LETTER.test(text)) return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    violations.push({ file, line: line + 1, text: text.trim(), where });
  };

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      report(node, node.text, "JSX text");
    } else if (
      ts.isJsxAttribute(node) &&
      VISIBLE_ATTRIBUTES.has(attributeName(node)) &&
      node.initializer
    ) {
      const where = `${attributeName(node)}=`;
      if (ts.isStringLiteral(node.initializer))
        report(node.initializer, node.initializer.text, where);
      else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) {
        for (const literal of renderedLiterals(node.initializer.expression))
          report(literal, literalText(literal), where);
      }
    } else if (
      ts.isJsxExpression(node) &&
      node.expression &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      for (const literal of renderedLiterals(node.expression))
        report(literal, literalText(literal), "JSX child expression");
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return violations;
}
