// A staff page refused (403): the header's session, and the page ready; the way to log in as staff is a link.
import { renderSession } from "./app.js";

await renderSession();
document.body.dataset.ready = "1";
