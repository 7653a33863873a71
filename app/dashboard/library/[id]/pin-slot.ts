/**
 * The element at the top of the creative page the review panel portals its pin area into, so an
 * image is shown once: the page's preview is the pin area (its server-rendered thumbnail stands in
 * until the panel mounts; app/globals.css hides it then).
 */
export const PIN_SLOT_ID = "creative-pin-slot";
