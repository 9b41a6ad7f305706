"""The tape as a graph (``dag.Dag``; ``build_graph`` gives a networkx one), built from the flat
records every consumer reads.

Nodes (``kind``):
  ``variable`` a tf.Variable (its reads inside a tape are folded into it);
  ``watched``  a tensor a tape watched that no recorded op produced;
  ``constant`` an input that no tape follows (a Python number, an unwatched tensor);
  ``op``       one recorded operation;
  ``tensor``   the output of an op.
Edges run input -> op -> output, so the graph reads in the direction of the forward pass.
"""
from ..backprop import READ
from ..variables import Variable
from .dag import Dag, to_networkx
from .summary import shape_summary, value_summary


NAMED_BY_LABEL = ("constant", "watched", "tensor")   # kinds whose label becomes the user's name


def _where(where):
    if not where:
        return {}
    return {"file": where[0], "line": where[1], "function": where[2] if len(where) > 2 else None}


class GraphBuilder:
    """Folds the records of several tapes into one graph; each node lists the tapes that saw it.

    ``graph``: where the nodes go (a ``Dag``, or ``compact.NodeColumns`` for a big tape);
    ``summary``: the value summary of tensors (a variable always gets ``value_summary``)."""

    def __init__(self, graph=None, summary=value_summary):
        self.g = Dag() if graph is None else graph
        self.summary = summary
        self.alias = {}        # id of a variable read -> the variable's node
        self.order = 0

    def _add(self, nid, **attrs):
        g = self.g
        if nid in g:
            if hasattr(g, "add_tapes"):
                g.add_tapes(nid, attrs.get("tapes", []))
                return nid
            tapes = g.nodes[nid].get("tapes", [])
            for t in attrs.get("tapes", []):
                if t not in tapes:
                    tapes.append(t)
            return nid
        attrs["order"] = self.order
        self.order += 1
        g.add_node(nid, **attrs)
        return nid

    def node_for(self, x, tape_index, watched):
        """The node of an input tensor or variable (creating a source node when needed)."""
        if isinstance(x, Variable):
            return self._add(f"v{x._id}", kind="variable", label=x.name.rsplit(":", 1)[0],
                             name=x.name, trainable=x.trainable, watched=True,
                             value=value_summary(x), tapes=[tape_index], **_where(x._where))
        alias = self.alias.get(x._id)
        if alias is not None:
            return alias
        nid = f"t{x._id}"
        if nid in self.g:
            return self._add(nid, tapes=[tape_index])
        kind = "watched" if x._id in watched else "constant"
        return self._add(nid, kind=kind, label=_const_label(x) if kind == "constant" else "tensor",
                         value=self.summary(x), watched=kind == "watched", tapes=[tape_index],
                         **_where(watched.get(x._id) if isinstance(watched, dict) else None))

    def add_records(self, records, tape_index, watched_at):
        """Adds one tape's records; returns the forward stream (op node ids in record order)."""
        stream = []
        for i, rec in enumerate(records):
            if rec.op is READ:
                var = rec.inputs[0]
                self.alias[rec.output._id] = self.node_for(var, tape_index, watched_at)
                continue
            op_id, out_id = self.add_record(rec, tape_index, watched_at)
            stream.append({"step": len(stream), "op": op_id, "output": out_id, "record": i,
                           "line": rec.where[1] if rec.where else None})
        return stream

    def add_record(self, rec, tape_index, watched_at):
        """Adds one op record (its op, output and inputs); returns the op's and output's ids."""
        op_id = f"o{rec.output._id}"
        out_id = f"t{rec.output._id}"
        new = op_id not in self.g
        self._add(op_id, kind="op", label=rec.op.name, op=rec.op.name,
                  attrs=_attrs_text(rec.attrs), scope=list(rec.scope or ()),
                  tapes=[tape_index], **_where(rec.where))
        self._add(out_id, kind="tensor", label="", value=self.summary(rec.output),
                  watched=True, tapes=[tape_index], **_where(rec.where))
        if new:
            for k, x in enumerate(rec.inputs):
                src = self.node_for(x, tape_index, watched_at)
                self.g.add_edge(src, op_id, index=k)
            self.g.add_edge(op_id, out_id, index=0)
        return op_id, out_id

    def name_node(self, nid, name):
        """Gives a source's or target's node (not an op) the user's name (and it as the label
        of a tensor)."""
        g = self.g
        if nid not in g:
            return
        if hasattr(g, "name_node"):
            g.name_node(nid, name)
            return
        data = g.nodes[nid]
        if data.get("kind") == "op":
            return
        data.setdefault("name", name)
        if data.get("kind") in NAMED_BY_LABEL:
            data["label"] = name

    def node_of_id(self, tid):
        if tid in self.alias:
            return self.alias[tid]
        for prefix in ("t", "v"):
            if f"{prefix}{tid}" in self.g:
                return f"{prefix}{tid}"
        return None


class ColumnBuilder(GraphBuilder):
    """A ``GraphBuilder`` for a big tape: nodes go straight into ``compact.NodeColumns``, tensors
    are summarized by shape and dtype, and an op (or output, or constant) like one seen before
    (same op, attributes, scope, line and shape) reuses its interned fields."""

    def __init__(self, cols):
        super().__init__(cols, shape_summary)
        self.templates = {}
        self.constants = {}
        self.constants_by_value = {}    # (dtype, shape, value if a scalar) -> interned fields

    def _add(self, nid, **attrs):
        g = self.g
        if nid in g:
            g.add_tapes(nid, attrs.get("tapes", []))
            return nid
        key = self._key(attrs)
        template = self.templates.get(key) if key is not None else None
        if template is not None:
            g.add_like(nid, attrs["kind"], attrs["tapes"], template)
        else:
            row = g.add_node(nid, **attrs)
            if key is not None:
                self.templates[key] = g.template(row)
        return nid

    def add_records(self, records, tape_index, watched_at):
        """As ``GraphBuilder.add_records``, the stream as columns of node rows; a new op whose
        op, scope, line and output shape were seen before takes a shortcut that copies the
        interned fields (its rows and edges appended in place: a big tape has many)."""
        cols = self.g
        row = cols.index
        stream = {"op": [], "output": [], "record": [], "line": []}
        s_op, s_out, s_rec, s_line = (stream[k].append for k in ("op", "output", "record", "line"))
        e_src, e_dst, e_idx = (cols.edges[k].append for k in ("source", "target", "index"))
        input_row = self._input_rows(tape_index, watched_at)
        fast = {}
        tapes = (tape_index,)
        for i, rec in enumerate(records):
            if rec.op is READ:
                self.alias[rec.output._id] = self.node_for(rec.inputs[0], tape_index, watched_at)
                continue
            out = rec.output
            where = rec.where
            key = (rec.op, rec.scope and tuple(rec.scope), where, id(shape_summary(out)))
            shortcut = None if rec.attrs else fast.get(key)
            if shortcut is None or f"o{out._id}" in row:
                op_id, out_id = self.add_record(rec, tape_index, watched_at)
                op_row, out_row = row[op_id], row[out_id]
                if not rec.attrs:
                    fast[key] = (cols.template(op_row), cols.template(out_row))
            else:
                op_row = cols.add_op_pair(out._id, tapes, shortcut)
                out_row = op_row + 1
                for k, x in enumerate(rec.inputs):
                    e_src(input_row(x))
                    e_dst(op_row)
                    e_idx(k)
                e_src(op_row)
                e_dst(out_row)
                e_idx(0)
            s_op(op_row)
            s_out(out_row)
            s_rec(i)
            s_line(where[1] if where else None)
        return stream

    def _input_rows(self, tape_index, watched):
        """``row_of(x)``: the row of an op's input ``x`` (as ``node_for``), with a shortcut for
        a tensor already in the columns on this tape alone (a big tape's usual input)."""
        cols, alias = self.g, self.alias
        rows, tapes_of, only = cols.tensor_rows, cols.tapes, (tape_index,)
        index, node_for, by_value = cols.index, self.node_for, self.constants_by_value

        def row_of(x):
            tid = x._id
            r = rows.get(tid)
            if r is not None:
                if tapes_of[r] == only and tid not in alias:
                    return r
            elif tid not in alias and tid not in watched and not isinstance(x, Variable):
                v = x._value        # a new constant: like one seen before, by its value
                key = (v.dtype, v.shape, v.tobytes() if v.size == 1 else None)
                template = by_value.get(key)
                if template is not None:
                    return cols.add_like(f"t{tid}", "constant", only, template, tid)
                r = index[node_for(x, tape_index, watched)]
                by_value[key] = cols.template(r)
                return r
            return index[node_for(x, tape_index, watched)]
        return row_of

    def node_for(self, x, tape_index, watched):
        """As ``GraphBuilder.node_for``; a new constant like one seen before (same label, shape
        and dtype) copies its interned fields."""
        if isinstance(x, Variable) or x._id in self.alias or x._id in watched:
            return super().node_for(x, tape_index, watched)
        nid = f"t{x._id}"
        cols = self.g
        row = cols.index.get(nid)
        if row is not None:
            if cols.tapes[row] != (tape_index,):
                cols.add_tapes(nid, (tape_index,))
            return nid
        key = (_const_label(x), id(shape_summary(x)))
        template = self.constants.get(key)
        if template is None:
            super().node_for(x, tape_index, watched)
            self.constants[key] = cols.template(cols.index[nid])
        else:
            cols.add_like(nid, "constant", (tape_index,), template, x._id)
        return nid

    @staticmethod
    def _key(attrs):
        """What makes two nodes' fields the same, for the kinds that repeat; None otherwise."""
        kind = attrs.get("kind")
        if kind not in ("op", "tensor", "constant") or attrs.get("attrs"):
            return None
        return (kind, attrs["label"], attrs.get("op"), id(attrs.get("value")),
                tuple(attrs.get("scope") or ()), attrs.get("file"), attrs.get("line"),
                attrs.get("function"), attrs.get("watched"))


def _const_label(x):
    v = x._value
    if v.size == 1 and v.ndim <= 1:
        return f"{v.reshape(()).item():g}" if v.dtype.kind == "f" else str(v.reshape(()).item())
    return "const " + "x".join(map(str, v.shape))


def _attrs_text(attrs):
    if not attrs:
        return {}
    out = {}
    for k, v in attrs.items():
        out[k] = v if isinstance(v, (int, float, bool, str, type(None))) else str(v)
    return out


def watched_lines(view):
    """{id: line of its tape.watch() call, or None} for every id the tape watches; ``view`` is
    the tape's provenance."""
    at = view.watched_at
    return {k: at.get(k) for k in view.tape.watched_ids}


def build_graph(tapes):
    """A ``networkx.DiGraph`` of the given tapes' records (see ``GraphBuilder``)."""
    b = GraphBuilder()
    for i, tape in enumerate(tapes):
        view = tape.observer   # its provenance
        b.add_records(view.records, i, watched_lines(view))
    return to_networkx(b.g)
