/* conf_suggest.h - "did you mean ...?" for misspelt keys, names and choices.
 *
 * The suggestion is the candidate with the smallest Levenshtein distance to the word, if that
 * distance is at most max(2, strlen(word) / 3); ties go to the earliest candidate, so callers
 * list candidates in table order and get stable messages.
 */
#ifndef SKSIM_CONF_SUGGEST_H
#define SKSIM_CONF_SUGGEST_H

#include <glib.h>

guint conf_edit_distance(const char *a, const char *b);
/* candidates: const char*; returns one of them (borrowed) or NULL. */
const char *conf_suggest(const char *word, const GPtrArray *candidates);
/* " (did you mean 'x'?)" or "" (caller frees). */
char *conf_suggest_hint(const char *word, const GPtrArray *candidates);

#endif
