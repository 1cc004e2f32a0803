/**
 * Wording of a model (or the server running it) that cannot take images, whatever the status it
 * comes with: Ollama's 500 "Failed to create new sequence: failed to process inputs: this model is
 * missing data required for image input" (a text-only model, or one packaged without its vision
 * projector) and its 400 "this model does not support image input"; llama.cpp's "image input is
 * not supported" (no --mmproj); vLLM's "At most 0 image(s) may be provided in one request" and
 * "is not a multimodal model"; OpenRouter's "No endpoints found that support image input". Said
 * with 500, it looked like a passing failure: asked again, and never remembered.
 */
const NO_IMAGE_INPUT =
  /missing data required for image input|(?:does not|doesn't|do not|cannot) (?:support|accept|take) (?:image|images|vision)\b|image input is not supported|images? (?:input )?(?:are|is) not supported|not a multimodal model|at most 0 image|no endpoints found that support image input/i;

/** True when `text` says the model or its server cannot take images. */
export function refusesImageInput(text: string): boolean {
  return NO_IMAGE_INPUT.test(text);
}
