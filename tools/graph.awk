# graph.awk: the directed graph and its circles, for tools/circles.sh and
# tools/layers.sh (prepended to their programs).  edge(A, B) adds A -> B
# once; circles(WHAT) prints "WHAT: A -> B -> A" for each circle a
# depth-first search closes (a grey node met again: the stack from it to
# the top) and returns how many.
function edge(a, b) {
	if ((a, b) in seen_)
		return
	seen_[a, b] = 1
	if (!(a in nout_)) { nout_[a] = 0; order_[++nnode_] = a }
	if (!(b in nout_)) { nout_[b] = 0; order_[++nnode_] = b }
	out_[a, ++nout_[a]] = b
}
function visit_(u, what,    i, v, j, s) {
	colour_[u] = 1
	stack_[++depth_] = u
	for (i = 1; i <= nout_[u]; i++) {
		v = out_[u, i]
		if (colour_[v] == 1) {
			s = v
			for (j = depth_; j >= 1 && stack_[j] != v; j--)
				;
			for (j++; j <= depth_; j++)
				s = s " -> " stack_[j]
			print what ": " s " -> " v
			found_++
		} else if (!colour_[v]) {
			visit_(v, what)
		}
	}
	depth_--
	colour_[u] = 2
}
function circles(what,    k) {
	for (k = 1; k <= nnode_; k++)
		if (!colour_[order_[k]])
			visit_(order_[k], what)
	return found_ + 0
}
