/**
 * The built-in text rules, written as a pack so they obey exactly the rules
 * user packs do. Phrases are kept broad on purpose: a finding asks a human
 * to read the text, it does not prove intent.
 *
 * @module
 */
import { parsePack } from "./pack.ts";
import type { PatternRule } from "./pack.ts";

/** Where the model reads what a tool is: names, descriptions, schemas, server instructions. */
const MODEL_FACING =
  `["tool.name", "tool.title", "tool.description", "tool.input-schema", "tool.output-schema",
  "prompt.name", "prompt.title", "prompt.description", "prompt.arguments",
  "resource.name", "resource.title", "resource.description",
  "template.name", "template.title", "template.description", "server.instructions"]`;

const INSTRUCTION_PHRASES = [
  String
    .raw`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|other|system)\s+(?:instructions?|prompts?|messages?|rules|directions|context)`,
  String.raw`\byou\s+(?:must|are\s+required\s+to|have\s+to|need\s+to)\b`,
  String.raw`\byou\s+are\s+now\b`,
  String.raw`\b(?:new|updated|real|true|actual)\s+(?:system\s+)?instructions?\s*:`,
  String.raw`\bsystem\s+prompt\b`,
  String
    .raw`\b(?:the|as\s+an?)\s+(?:assistant|ai|llm|language\s+model|model|agent)\s+(?:must|should|shall|will\s+now)\b`,
  String
    .raw`\bbefore\s+(?:using|calling|invoking)\s+(?:this|any\s+other|the\s+\S+)\s+tool\b[^.]{0,60}\b(?:read|call|send|pass|include|fetch)\b`,
  String.raw`\bpretend\s+(?:to\s+be|that)\b`,
].join("|");

const CONCEALMENT_PHRASES = [
  String
    .raw`\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention(?:\s+this)?\s+to|reveal\s+(?:this\s+)?to|show|notify|alert|let)\s+the\s+user`,
  String.raw`\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+the\s+user`,
  String.raw`\b(?:hide|conceal|keep)\b[^.]{0,40}\bfrom\s+the\s+user`,
  String
    .raw`\bthe\s+user\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|see|be\s+told|find\s+out)`,
  String.raw`\b(?:secretly|covertly|surreptitiously)\b`,
].join("|");

const TOML_TEXT = `
[[rule]]
id = "MCL101"
name = "model-directed-instruction"
severity = "error"
summary = "Server text gives orders to the model (\\"ignore previous instructions\\", \\"you must\\", a new system prompt)"
surface = ${MODEL_FACING}
regex = '''${INSTRUCTION_PHRASES}'''
message = "instruction aimed at the model: \\"{match}\\""

[[rule]]
id = "MCL102"
name = "conceal-from-user"
severity = "error"
summary = "Server text asks to keep something from the user"
surface = ["*"]
regex = '''${CONCEALMENT_PHRASES}'''
message = "asks to hide something from the user: \\"{match}\\""

[[rule]]
id = "MCL103"
name = "hidden-emphasis-tag"
severity = "error"
summary = "Pseudo-markup that tries to raise text above the conversation (<IMPORTANT>, <system>, [INST], <|im_start|>)"
surface = ${MODEL_FACING}
regex = '''<\\s*/?\\s*(?:important|system|instructions?|secret|hidden|admin|sys|assistant|context|prompt|critical)\\b[^>]{0,40}>|\\[/?(?:INST|SYSTEM|SYS)\\]|<\\|im_(?:start|end)\\|>'''
message = "hidden-emphasis tag \\"{match}\\""

[[rule]]
id = "MCL104"
name = "sensitive-path-reference"
severity = "warning"
summary = "Server text points at credential files (~/.ssh, .aws/credentials, .env, /etc/passwd)"
surface = ${MODEL_FACING}
regex = '''~/\\.ssh\\b|\\bid_(?:rsa|ed25519|ecdsa)\\b|\\.aws/credentials|(?:^|[\\s/'"])\\.env\\b|/etc/(?:passwd|shadow)\\b|\\.npmrc\\b|\\.netrc\\b'''
message = "refers to a credential file: \\"{match}\\""

[[rule]]
id = "MCL109"
name = "instruction-in-tool-result"
severity = "warning"
summary = "A tool result speaks to the model the way an injected instruction does"
surface = ["tool.result", "resource.content"]
regex = '''${INSTRUCTION_PHRASES}|<\\s*/?\\s*(?:important|system|instructions?)\\b[^>]{0,40}>'''
message = "tool result gives orders to the model: \\"{match}\\""
`;

/** The built-in pattern rules. */
export const BUILTIN_PATTERN_RULES: readonly PatternRule[] = parsePack(TOML_TEXT, "builtin").map((
  rule,
) => ({
  ...rule,
  origin: "builtin",
}));
