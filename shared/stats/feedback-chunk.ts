/**
 * Iterations between write-backs in the hot loops that run over thousands of elements (resample
 * draws, the sorted correlation pass, per-replicate totals).
 *
 * V8 compiles such a loop on-stack while its first call runs, before the code after the loop has
 * run once. That code then has no type feedback, so the compiled code leaves to the interpreter
 * there; the on-stack code stays cached, so every later call paid the same deoptimisation
 * (measured: once per call). A loop that writes its results back after every chunk of this many
 * iterations runs that write-back in the interpreter during the first chunk, and nothing but a
 * return follows the loop.
 */
export const FEEDBACK_CHUNK = 256;
