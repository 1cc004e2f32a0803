/**
 * A model server that could not turn the request into the model's prompt because the model's
 * chat template failed. LM Studio: 'Error rendering prompt with jinja template: "Unknown
 * StringValue filter: safe". This is usually an issue with the model's prompt template …' (400,
 * or a lone error event in a 200 stream); vLLM and SGLang: "jinja2.exceptions.TemplateError: …",
 * "default chat template is no longer allowed, so you must provide a chat template" (400 or 500);
 * llama.cpp: "failed to apply chat template", "this custom template is not supported"; Ollama's
 * Go templates: 'template: :12:5: executing "" at <.Messages>: …'. The same request renders the
 * same way however often it is sent: it is not a momentary failure, and "please try again" is no
 * advice; the template on that server (or the model) must change.
 */

const TEMPLATE_FAILURE =
  /error rendering prompt with jinja template|\bjinja2?\.exceptions\.\w+|\bTemplateError\b|\bfailed to (?:apply|render|parse|format) (?:the )?(?:chat|prompt) template\b|\bchat template (?:is no longer allowed|(?:render(?:ing)?|apply(?:ing)?) (?:error|failed))|\bmust provide a chat template\b|\bcustom template is not supported\b|\btemplate: [^\s]*:\d+(?::\d+)?: executing\b/i;

/** True when `message` says the model's chat template failed to render the request (see above). */
export function isTemplateFailure(message: string): boolean {
  return TEMPLATE_FAILURE.test(message);
}
