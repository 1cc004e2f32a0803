/**
 * A model server whose process running the model stopped: Ollama's 500 "model runner has
 * unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama
 * server logs for details", and its older "llama runner process has terminated: exit status 2".
 * LM Studio says "The model has crashed without additional information. (Exit code: null)" with
 * 400 while its worker restarts.
 * It happens now and then (so it is asked again, whatever the status), most often for want of memory for the model or
 * the conversation; "unavailable, try again in a little while" told the person nothing they could
 * do when it kept happening. A cause the server names (out of memory, an architecture it cannot
 * load) is read before this (transience.ts).
 */
const RUNNER_STOPPED =
  /model runner has unexpectedly stopped|(?:llama|model)[ -](?:runner|server) process (?:has )?(?:terminated|exited|crashed)|model has crashed without additional information/i;

/** True when `text` says the server's process running the model stopped. */
export function runnerStopped(text: string): boolean {
  return RUNNER_STOPPED.test(text);
}
