// Instructions planted in text that a model will read as its prompt: a ticket, a web page, a
// tool's answer. These rules catch the common wordings in English and Turkish; a judge model
// reads what they cannot see. Each rule needs an instruction aimed at the model itself, so text
// that merely talks about instructions ("see the previous instructions in the manual") passes.

export interface InjectionHit {
  rule: string;
  start: number;
  end: number;
}

const RULES: readonly { rule: string; pattern: RegExp }[] = [
  {
    rule: "ignore-previous",
    pattern:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions|prompts?|rules|messages|directions)\b/i,
  },
  {
    rule: "new-instructions",
    pattern: /(?:^|\n)\s*(?:new|updated|real)\s+(?:system\s+)?instructions\s*:/i,
  },
  {
    rule: "reveal-system-prompt",
    pattern:
      /\b(?:reveal|print|show|repeat|output)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)\b/i,
  },
  {
    rule: "role-marker",
    pattern: /(?:^|\n)\s*(?:<\|im_start\|>\s*system|\[\s*system\s*\]|###\s*system\s*:)/i,
  },
  {
    rule: "tr-ignore-previous",
    pattern:
      /(?<!\p{L})(?:önceki|yukarıdaki|tüm)\s+(?:tüm\s+)?(?:talimatları|komutları|kuralları)\s+(?:yok\s+say|unut|görmezden\s+gel)/iu,
  },
];

export function findInjection(text: string): InjectionHit | null {
  for (const { rule, pattern } of RULES) {
    const match = pattern.exec(text);
    if (match) return { rule, start: match.index, end: match.index + match[0].length };
  }
  return null;
}
