// The books page for someone who may not read it: the session line only, then ready.
import { renderSession } from "./app.js";

await renderSession();
document.body.dataset.ready = "1";
