/* suggest: how near two names are, for the "did you mean X?" of a
 * message naming a misspelt metric or checkpoint. */
#ifndef MR_SUGGEST_H
#define MR_SUGGEST_H

/* The edit distance of a and b (insertions, deletions, substitutions),
 * capped at 9: names are short, and one further away is no suggestion. */
int mr_edit_distance(const char *a, const char *b);

#endif
