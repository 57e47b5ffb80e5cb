/**
 * The one value the emulator and the kit share: the emulator acts before it answers (it delivers the disconnect hook
 * and stores a message before the request that caused them returns), so an effect it has not shown within this much
 * time will not come: watching the full window would only slow the fault tests, where every effect-watching rule sees
 * its effect missing. The embedded emulator's cap, and the EFFECT_WINDOW_MS the standalone emulator prints. It lives
 * beside the error catalogue, depending on nothing, so the emulator reads it without importing the kit's model.
 */
export const EMULATOR_EFFECT_WINDOW_MS = 1_000;
