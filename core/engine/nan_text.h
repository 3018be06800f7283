/* printf's "%g" writes a NaN as "-nan" or "nan" (the sign bit of 0/0 is set
 * on x86); the messages a user reads say "NaN" instead, whatever its sign. */
#ifndef CARDIAC_NAN_TEXT_H
#define CARDIAC_NAN_TEXT_H
#include <ctype.h>
#include <string.h>

static inline void nan_text(char *msg)
{
    for (char *p = msg; (p = strstr(p, "nan")) != NULL;) {
        const int word = (p == msg || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[3]);
        if (!word) { p += 3; continue; }
        if (p > msg && p[-1] == '-') {   /* "-nan" -> "NaN" */
            memmove(p - 1, p, strlen(p) + 1);
            p--;
        }
        memcpy(p, "NaN", 3);
        p += 3;
    }
}

#endif
