// The help pages (/rules, /tips): the top bar. A file of its own because the pages run no
// inline script (the content security policy allows only the server's own script files).
"use strict";
mountTopbar(location.pathname);
