/* conf_suggest.c - nearest-candidate suggestions by edit distance.
 *
 * Plain two-row dynamic-programming Levenshtein over bytes: keys are ASCII and short, and the
 * candidate lists are at most a few hundred entries, so nothing cleverer is needed.
 */
#include "sim/conf_suggest.h"

#include <string.h>

guint conf_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    g_autofree guint *prev = g_new(guint, lb + 1);
    g_autofree guint *cur = g_new(guint, lb + 1);
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (guint)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (guint)i;
        for (size_t j = 1; j <= lb; j++) {
            guint subst = prev[j - 1] + (a[i - 1] != b[j - 1]);
            cur[j] = MIN(MIN(prev[j] + 1, cur[j - 1] + 1), subst);
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

const char *conf_suggest(const char *word, const GPtrArray *candidates)
{
    guint limit = MAX(2u, (guint)(strlen(word) / 3));
    const char *best = NULL;
    guint best_d = G_MAXUINT;
    for (guint i = 0; i < candidates->len; i++) {
        const char *c = g_ptr_array_index(candidates, i);
        guint d = conf_edit_distance(word, c);
        if (d < best_d && d <= limit && strcmp(word, c) != 0) {
            best = c;
            best_d = d;
        }
    }
    return best;
}

char *conf_suggest_hint(const char *word, const GPtrArray *candidates)
{
    const char *s = conf_suggest(word, candidates);
    return s ? g_strdup_printf(" (did you mean '%s'?)", s) : g_strdup("");
}
