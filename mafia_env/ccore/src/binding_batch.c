/* -------------------------------------------------------- the batched step: the binding */
/* bind(obs, masks, rewards, dones, truncated, winner, seat, team, teams, done_teams): the
   VectorMafia arrays the batched calls write (float32, int8, float32, bool, bool, int64,
   int64, int64, int64, int64); batch.c does the step over them */
static PyObject *Core_bind(CoreObject *self, PyObject *args) {
    PyObject *o[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9]))
        return NULL;
    release_buffers(self);
    const Config *c = &self->cfg;
    Py_ssize_t B = self->num, n = c->n;
    Py_ssize_t sizes[10] = {B * c->obs_size * 4, B * c->action_size, B * n * 4, B, B,
                            B * 8, B * 8, B * 8, B * n * 8, B * n * 8};
    for (int i = 0; i < 10; i++) {
        if (get_wbuf(o[i], &self->views[i], sizes[i], "bind") < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(&self->views[j]);
            return NULL;
        }
    }
    Py_buffer *v = self->views;
    self->arrays = (Batch){v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf,
                           v[5].buf, v[6].buf, v[7].buf, v[8].buf, v[9].buf};
    self->bound = 1;
    Py_RETURN_NONE;
}

/* reset_all(): a new game in every slot from its stream; the arrays written */
static PyObject *Core_reset_all(CoreObject *self, PyObject *noargs) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    batch_reset(&self->cfg, self->games, self->num, self->has_deal ? self->deal : NULL,
                &self->arrays);
    return check_oom(Py_NewRef(Py_None));
}

/* step_all(actions) -> -1, or the first game whose action is illegal (nothing is applied
   then). A game that ends starts the slot's next one at once. */
static PyObject *Core_step_all(CoreObject *self, PyObject *acts) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(acts, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (v.len != (Py_ssize_t)8 * self->num || v.itemsize != 8 || !v.format ||
        (strcmp(v.format, "l") != 0 && strcmp(v.format, "q") != 0 &&
         strcmp(v.format, "<q") != 0 && strcmp(v.format, "=q") != 0 &&
         strcmp(v.format, "<l") != 0 && strcmp(v.format, "=l") != 0)) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_TypeError, "actions must be a contiguous int64 array of B");
        return NULL;
    }
    int bad = batch_step(&self->cfg, self->games, self->num,
                         self->has_deal ? self->deal : NULL, &self->arrays, v.buf);
    PyBuffer_Release(&v);
    if (bad >= 0) return PyLong_FromLong(bad);
    return check_oom(PyLong_FromLong(-1));
}

/* an int64 array's buffer of `len` items, or of any length where len < 0 (NULL: an error) */
static int get_i64(PyObject *o, Py_buffer *v, Py_ssize_t len, int writable, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, v, flags) < 0) return -1;
    const char *f = v->format ? v->format : "";
    if (f[0] == '<' || f[0] == '=') f++;
    if (v->itemsize != 8 || (strcmp(f, "q") != 0 && strcmp(f, "l") != 0) ||
        (len >= 0 && v->len != 8 * len)) {
        PyBuffer_Release(v);
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous int64 array%s", what,
                     len >= 0 ? " of the games' length (out: [games, 2])" : "");
        return -1;
    }
    return 0;
}

/* game b of a core that logs its events, asked of seat `seat`: NULL and *g set, or what is wrong */
static const char *logged_game(CoreObject *self, int64_t b, int64_t seat, const Game **g) {
    if (b < 0 || b >= self->num) return "a game index out of range";
    if (seat < 0 || seat >= self->cfg.n) return "a seat out of range";
    *g = &self->games[b];
    return (*g)->log_events ? NULL : "this core keeps no events (log_events=False)";
}

/* last_marks(games, seats, moves, facts, out): for each row i of game games[i] and seat
   seats[i], out[i, 0] = 1 + the index of the game's last public event of a kind in bitmask
   `moves`, and out[i, 1] = 1 + the index of its last hidden event seen by the seat of a kind
   in bitmask `facts` (0: none). games and seats int64 arrays of m, out an int64 array of
   [m, 2]; the events of a core that logs them (the belief piece's marks: seat_obs.LazyBelief) */
static PyObject *Core_last_marks(CoreObject *self, PyObject *args) {
    PyObject *go, *so, *oo;
    unsigned long long moves, facts;
    if (!PyArg_ParseTuple(args, "OOKKO", &go, &so, &moves, &facts, &oo)) return NULL;
    Py_buffer gv, sv, ov;
    if (get_i64(go, &gv, -1, 0, "games") < 0) return NULL;
    Py_ssize_t m = gv.len / 8;
    if (get_i64(so, &sv, m, 0, "seats") < 0) {
        PyBuffer_Release(&gv);
        return NULL;
    }
    if (get_i64(oo, &ov, 2 * m, 1, "out") < 0) {
        PyBuffer_Release(&gv);
        PyBuffer_Release(&sv);
        return NULL;
    }
    const int64_t *gs = gv.buf, *ss = sv.buf;
    int64_t *out = ov.buf;
    const char *bad = NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        const Game *g = NULL;
        if ((bad = logged_game(self, gs[i], ss[i], &g))) break;
        int64_t bit = (int64_t)1 << ss[i], pub = 0, own = 0;
        for (int k = g->n_events - 1; k >= 0 && !(pub && own); k--) {
            const Event *e = &g->events[k];
            unsigned long long kind = 1ULL << (e->kind & 63);
            if (e->seen_by == PUBLIC) {
                if (!pub && (moves & kind)) pub = k + 1;
            } else if (!own && (e->seen_by & bit) && (facts & kind)) {
                own = k + 1;
            }
        }
        out[2 * i] = pub;
        out[2 * i + 1] = own;
    }
    PyBuffer_Release(&gv);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&ov);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* a contiguous buffer of `items` items of `size` bytes (writable where asked), or an error */
static int get_items(PyObject *o, Py_buffer *v, Py_ssize_t items, int size, int writable,
                     const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, v, flags) < 0) return -1;
    if (v->len != items * size) {
        PyBuffer_Release(v);
        PyErr_Format(PyExc_ValueError, "%s must hold %zd bytes; got %zd", what, items * size,
                     v->len);
        return -1;
    }
    return 0;
}

/* get_items into v[*got] and its data (the next buffer held: *got + 1), or NULL on an error */
static void *take_items(PyObject *o, Py_buffer *v, int *got, Py_ssize_t items, int size,
                        int writable, const char *what) {
    if (get_items(o, &v[*got], items, size, writable, what) < 0) return NULL;
    return v[(*got)++].buf;
}

/* count_pieces(table, state, games, seats, out, status): the belief piece of seat seats[i] in
   game games[i] of a counted table (count.c) into out[i] (float32, n x R each), read from the
   games' logs; status[i] = (0, the count's version, the events read), or (-1, ...) where the
   count cannot say (an event it does not read: the caller's Python path). table: (deals int8
   [D, n], black uint8 [D, n], town uint8 [D, n], outcomes int8 [(n + 1)^2], index int8
   [N_ROLES], mafia_of uint8 [R], params int32 (D, R, shot_all, shot_never, don_known, don,
   sheriff)); state: (live uint8 [B, D], n_town int16 [B, D], n_black int16 [B, D], alive uint8
   [B, n], misc int32 [B, 4]), each slot's, kept by the caller between calls */
static PyObject *Core_count_pieces(CoreObject *self, PyObject *args) {
    PyObject *to, *so, *go, *eo, *oo, *xo;
    if (!PyArg_ParseTuple(args, "O!O!OOOO", &PyTuple_Type, &to, &PyTuple_Type, &so, &go, &eo,
                          &oo, &xo))
        return NULL;
    if (PyTuple_GET_SIZE(to) != 7 || PyTuple_GET_SIZE(so) != 5) {
        PyErr_SetString(PyExc_TypeError, "count_pieces(table: 7 arrays, state: 5 arrays, ...)");
        return NULL;
    }
    int n = self->cfg.n, B = self->num;
    Py_buffer v[16];
    int got = 0, ok = 0;
    CountTable t;
    CountState s;
    Py_ssize_t m = 0;
    do {
        const int32_t *p = take_items(PySequence_Fast_ITEMS(to)[6], v, &got, 7, 4, 0, "params");
        if (!p) break;
        t.D = p[0], t.n = n, t.R = p[1], t.shot_all = p[2], t.shot_never = p[3];
        t.don_known = p[4], t.don = p[5], t.sheriff = p[6];
        if (t.D < 1 || t.R < 1 || t.R > N_ROLES) {
            PyErr_SetString(PyExc_ValueError, "count_pieces: bad table sizes");
            break;
        }
        Py_ssize_t D = t.D, R = t.R;
        Py_ssize_t BD = (Py_ssize_t)B * D, Bn = (Py_ssize_t)B * n;
        PyObject **T = PySequence_Fast_ITEMS(to), **S = PySequence_Fast_ITEMS(so);
        if (!(t.deals = take_items(T[0], v, &got, D * n, 1, 0, "deals"))) break;
        if (!(t.black = take_items(T[1], v, &got, D * n, 1, 0, "black"))) break;
        if (!(t.town = take_items(T[2], v, &got, D * n, 1, 0, "town"))) break;
        if (!(t.outcomes = take_items(T[3], v, &got, (n + 1) * (n + 1), 1, 0, "outcomes"))) break;
        if (!(t.index = take_items(T[4], v, &got, N_ROLES, 1, 0, "index"))) break;
        if (!(t.mafia_of = take_items(T[5], v, &got, R, 1, 0, "mafia_of"))) break;
        if (!(s.live = take_items(S[0], v, &got, BD, 1, 1, "live"))) break;
        if (!(s.n_town = take_items(S[1], v, &got, BD, 2, 1, "n_town"))) break;
        if (!(s.n_black = take_items(S[2], v, &got, BD, 2, 1, "n_black"))) break;
        if (!(s.alive = take_items(S[3], v, &got, Bn, 1, 1, "alive"))) break;
        if (!(s.misc = take_items(S[4], v, &got, (Py_ssize_t)B * 4, 4, 1, "misc"))) break;
        if (get_i64(go, &v[got], -1, 0, "games") < 0) break;
        const int64_t *gs = v[got++].buf;
        m = v[got - 1].len / 8;
        if (get_i64(eo, &v[got], m, 0, "seats") < 0) break;
        const int64_t *ss = v[got++].buf;
        float *out = take_items(oo, v, &got, m * n * R, 4, 1, "out");
        if (!out) break;
        if (get_i64(xo, &v[got], 3 * m, 1, "status") < 0) break;
        int64_t *st = v[got++].buf;
        uint8_t *okv = malloc((size_t)D + (size_t)n * R);
        int64_t *cnt = malloc(sizeof(int64_t) * (size_t)n * R);
        if (!okv || !cnt) {
            free(okv);
            free(cnt);
            PyErr_NoMemory();
            break;
        }
        const char *bad = NULL;
        for (Py_ssize_t i = 0; i < m; i++) {
            const Game *g = NULL;
            if ((bad = logged_game(self, gs[i], ss[i], &g))) break;
            int b = (int)gs[i];
            st[3 * i] = count_piece(&t, &s, b, g, (int)ss[i], out + i * n * R, okv, okv + D, cnt);
            st[3 * i + 1] = s.misc[b * 4 + 2];
            st[3 * i + 2] = s.misc[b * 4];
        }
        free(okv);
        free(cnt);
        if (bad) {
            PyErr_SetString(PyExc_ValueError, bad);
            break;
        }
        ok = 1;
    } while (0);
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* memory() -> bytes held by the games, their rows and their logs (not the bound arrays) */
static PyObject *Core_memory(CoreObject *self, PyObject *noargs) {
    return PyLong_FromSize_t(games_memory(&self->cfg, self->games, self->num));
}

/* random_state(b, which) -> (index, words): a stream's state (0: the game's, 1: the slot's),
   as random.Random.getstate() holds it */
static PyObject *Core_random_state(CoreObject *self, PyObject *args) {
    int b, which;
    if (!PyArg_ParseTuple(args, "ii", &b, &which)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    MT *mt = which ? &g->slot : &g->rng;
    PyObject *words = PyTuple_New(MT_N);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *w = PyLong_FromUnsignedLong(mt->state[i]);
        if (!w) {
            Py_DECREF(words);
            return NULL;
        }
        PyTuple_SET_ITEM(words, i, w);
    }
    return Py_BuildValue("(iN)", mt->index, words);
}
