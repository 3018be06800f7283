#ifndef CARDIAC_HELP_TEXT_H
#define CARDIAC_HELP_TEXT_H
typedef struct { const char *name, *text; } help_entry;
extern const help_entry help_entries[];
#endif
