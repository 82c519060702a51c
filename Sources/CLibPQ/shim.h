// libpq, PostgreSQL's C client library (Debian's libpq-dev; pkg-config `libpq`). Swift calls its
// functions directly; nothing needs adding.
#include <libpq-fe.h>
