/* ------------------------------------------------------- a game's calls: the binding */
/* The methods of a game's calls (calls.c does their work): arguments in, Python objects out,
   the engine's CoreErr raised as the matching Python error. */

/* raise e; x and limit fill in its message where it names them */
static PyObject *core_error(CoreErr e, long x, int limit) {
    switch (e) {
    case CORE_ERR_OVER:
        PyErr_SetString(PyExc_RuntimeError, "the game is over: nobody acts");
        break;
    case CORE_ERR_INDEX:
        PyErr_Format(PyExc_ValueError, "action %ld is outside 0..%d", x, limit - 1);
        break;
    case CORE_ERR_ACTION:
        PyErr_SetString(PyExc_ValueError, "no such action");
        break;
    case CORE_ERR_SEAT:
        PyErr_Format(PyExc_IndexError, "seat %ld is not at the table", x);
        break;
    case CORE_ERR_SEAT_TURN:
        PyErr_SetString(PyExc_IndexError, "no such seat or turn");
        break;
    case CORE_ERR_LEFT:
        PyErr_Format(PyExc_ValueError, "seat %ld has already left the game", x);
        break;
    case CORE_ERR_SPEECH:
        PyErr_SetString(PyExc_ValueError,
                        "table talk is part of a speech: nobody is speaking now");
        break;
    case CORE_ERR_STATE:
        PyErr_SetString(PyExc_ValueError, "not a saved game of this core's variant and table");
        break;
    default:
        PyErr_NoMemory();
    }
    return NULL;
}

static Game *game_at(CoreObject *self, int b) {
    if (b < 0 || b >= self->num) {
        PyErr_Format(PyExc_IndexError, "game %d is not in 0..%d", b, self->num - 1);
        return NULL;
    }
    return &self->games[b];
}

/* the game of a method's one argument, its index (NULL: an error is set) */
static Game *game_arg(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    return game_at(self, b);
}

static PyObject *check_oom(PyObject *result) {
    if (g_oom) {
        g_oom = 0;
        Py_XDECREF(result);
        return PyErr_NoMemory();
    }
    return result;
}

static int read_key(PyObject *words, uint32_t **key, Py_ssize_t *len) {
    PyObject *seq = PySequence_Fast(words, "a seed's words");
    if (!seq) return -1;
    *len = PySequence_Fast_GET_SIZE(seq);
    if (*len < 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a seed has at least one word");
        return -1;
    }
    *key = PyMem_Malloc(sizeof(uint32_t) * (size_t)*len);
    if (!*key) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *len; i++) {
        unsigned long x = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            PyMem_Free(*key);
            return -1;
        }
        (*key)[i] = (uint32_t)x;
    }
    Py_DECREF(seq);
    return 0;
}

/* seed_slot(b, words): seed game b's slot stream as random.Random(x) with x's 32-bit words */
static PyObject *Core_seed_slot(CoreObject *self, PyObject *args) {
    int b;
    PyObject *words;
    if (!PyArg_ParseTuple(args, "iO", &b, &words)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    uint32_t *key;
    Py_ssize_t len;
    if (read_key(words, &key, &len) < 0) return NULL;
    mt_init_by_array(&g->slot, key, (size_t)len);
    PyMem_Free(key);
    Py_RETURN_NONE;
}


/* start(b, seed, deal=None): a new game in slot b from a game seed (0 <= seed < 2**64) */
static PyObject *Core_start(CoreObject *self, PyObject *args) {
    int b;
    unsigned long long seed;
    PyObject *deal = Py_None;
    if (!PyArg_ParseTuple(args, "iK|O", &b, &seed, &deal)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int d[MAXN], has = read_deal(&self->cfg, deal, d);
    if (has < 0) return NULL;
    game_new(&self->cfg, g, seed, has ? d : NULL);
    return check_oom(PyLong_FromLong(g->actor));
}

/* start_from_slot(b): a new game whose seed is the slot's getrandbits(63) */
static PyObject *Core_start_from_slot(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    uint64_t seed = game_new_from_slot(&self->cfg, g, self->has_deal ? self->deal : NULL);
    return check_oom(PyLong_FromUnsignedLongLong(seed));
}

/* apply(b, index) -> the acting seat now (-1: the game is over). The index must be legal. */
static PyObject *Core_apply(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(b, index)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]);
    long a = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = game_apply_index(&self->cfg, g, a);
    if (e) return core_error(e, a, self->cfg.action_size);
    return check_oom(PyLong_FromLong(g->actor));
}

/* play(b, index) -> None where the index is not legal now (nothing is applied), else
   (the acting seat now, its mask as bytes), or (-1, None) once the game is over: the AEC
   env's step in one call */
static PyObject *Core_play(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(b, index)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]);
    long a = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int8_t scratch[MAXMASK];
    int actor = game_play(&self->cfg, g, a, scratch);
    if (actor == PLAY_ILLEGAL) Py_RETURN_NONE;
    if (g_oom) return check_oom(NULL);
    if (actor < 0) return Py_BuildValue("(iO)", -1, Py_None);
    PyObject *m = PyBytes_FromStringAndSize((const char *)scratch, self->cfg.action_size);
    if (!m) return NULL;
    PyObject *out = PyTuple_New(2);
    if (!out) {
        Py_DECREF(m);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(actor));
    PyTuple_SET_ITEM(out, 1, m);
    return out;
}

/* apply_action(b, act, target, value): a structured action (it must be legal) */
static PyObject *Core_apply_action(CoreObject *self, PyObject *args) {
    int b, act, target, value;
    if (!PyArg_ParseTuple(args, "iiii", &b, &act, &target, &value)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = game_apply_checked(&self->cfg, g, act, target, value);
    if (e) return core_error(e, 0, 0);
    return check_oom(PyLong_FromLong(g->actor));
}

static PyObject *seat_call(CoreObject *self, PyObject *args, int what) {
    int b, seat;
    if (!PyArg_ParseTuple(args, "ii", &b, &seat)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = game_seat_call(&self->cfg, g, seat, what);
    if (e) return core_error(e, seat, 0);
    return check_oom(PyLong_FromLong(g->actor));
}
static PyObject *Core_foul(CoreObject *self, PyObject *args) {
    return seat_call(self, args, CALL_ON_FOUL);
}
static PyObject *Core_remove(CoreObject *self, PyObject *args) {
    return seat_call(self, args, CALL_ON_REMOVE);
}
static PyObject *Core_terminate(CoreObject *self, PyObject *args) {
    return seat_call(self, args, CALL_ON_TERMINATE);
}

/* say(b): log the acting speaker's remark of table talk (its text stays in Python) */
static PyObject *Core_say(CoreObject *self, PyObject *args) {
    int b;
    if (!PyArg_ParseTuple(args, "i", &b)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = game_say(&self->cfg, g);
    if (e) return core_error(e, 0, 0);
    return check_oom(PyLong_FromLong(g->n_inputs));
}

static int get_wbuf(PyObject *o, Py_buffer *view, Py_ssize_t bytes, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len < bytes) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s needs a buffer of %zd bytes; got %zd", what, bytes,
                     view->len);
        return -1;
    }
    return 0;
}

/* observe(b, seat, out): seat's observation into the float32 buffer `out` */
static PyObject *Core_observe(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "observe(b, seat, out)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]), seat = (int)PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = check_seat(&self->cfg, seat);
    if (e) return core_error(e, seat, 0);
    Py_buffer v;
    if (get_wbuf(args[2], &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "observe") < 0)
        return NULL;
    write_obs(&self->cfg, g, seat, (float *)v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* observe_turn(b, seat, turn, out) */
static PyObject *Core_observe_turn(CoreObject *self, PyObject *args) {
    int b, seat, turn;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iiiO", &b, &seat, &turn, &out)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    CoreErr e = check_seat_turn(&self->cfg, seat, turn);
    if (e) return core_error(e, 0, 0);
    Py_buffer v;
    if (get_wbuf(out, &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "observe_turn") < 0)
        return NULL;
    write_obs_turn(&self->cfg, g, seat, turn, (float *)v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* private_rows(b, out): every seat's private row into the float32 buffer `out` [n, P] */
static PyObject *Core_private_rows(CoreObject *self, PyObject *args) {
    int b;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iO", &b, &out)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    Py_buffer v;
    Py_ssize_t size = (Py_ssize_t)sizeof(float) * c->n * c->private_size;
    if (get_wbuf(out, &v, size, "private_rows") < 0) return NULL;
    write_private_rows(c, g, (float *)v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* live(b) -> (actor, turn, turn_public, over): the observer's facts of the moment */
static PyObject *Core_live(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    return Py_BuildValue("(iiii)", g->o_actor, g->o_turn, g->o_turn_public, g->o_over);
}

/* mask(b) -> bytes: the acting seat's int8 mask (all zeros once the game is over) */
static PyObject *Core_mask(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->cfg.action_size);
    if (!out) return NULL;
    write_mask(&self->cfg, g, (int8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* mask_for(b, seat, turn) -> bytes: Game.legal_for's mask (a queued member of the round) */
static PyObject *Core_mask_for(CoreObject *self, PyObject *args) {
    int b, seat, turn;
    if (!PyArg_ParseTuple(args, "iii", &b, &seat, &turn)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int8_t m[MAXMASK];
    CoreErr e = game_mask_for(&self->cfg, g, seat, turn, m);
    if (e) return core_error(e, 0, 0);
    return PyBytes_FromStringAndSize((const char *)m, self->cfg.action_size);
}

/* [(seats[k], turns[k]), ...] of m pairs */
static PyObject *pairs_list(const int *seats, const int *turns, int m) {
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int k = 0; k < m; k++) {
        PyObject *x = Py_BuildValue("(ii)", seats[k], turns[k]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

/* pending_round(b) -> [(seat, turn), ...] (Game.pending_round) */
static PyObject *Core_pending_round(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    int seats[QCAP + 1], turns[QCAP + 1];
    return pairs_list(seats, turns, game_pending_round(&self->cfg, g, seats, turns));
}

/* queue(b) -> [(seat, turn), ...] */
static PyObject *Core_queue(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    int seats[QCAP], turns[QCAP];
    return pairs_list(seats, turns, game_queue(g, seats, turns));
}

/* default_action(b) -> (act, target, value) */
static PyObject *Core_default_action(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    int act, target, value;
    CoreErr e = game_default(&self->cfg, g, &act, &target, &value);
    if (e) return core_error(e, 0, 0);
    return Py_BuildValue("(iii)", act, target, value);
}

static PyObject *int_list(const int32_t *x, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(x[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* actor(b) -> the acting seat (-1: the game is over) */
static PyObject *Core_actor(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    return PyLong_FromLong(g->actor);
}

/* status(b) -> (actor, turn, winner, offender, truncated, day, stage, inputs, talk) */
static PyObject *Core_status(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    return Py_BuildValue("(iiiiiiiii)", g->actor, g->turn, g->winner, g->offender,
                         g->truncated, g->day, g->stage, g->n_inputs, g->talk_count);
}

/* facts(b) -> dict: the state the inspection hooks read */
static PyObject *Core_facts(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    int n = self->cfg.n;
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:K,s:i,s:i,s:i,s:i}", "roles",
                         int_list(g->roles, n), "teams", int_list(g->teams, n), "alive",
                         int_list(g->alive, n), "fouls", int_list(g->fouls, n), "team_alive",
                         int_list(g->team_alive, 3), "seed", (unsigned long long)g->seed,
                         "n_events", g->n_events, "n_inputs", g->n_inputs, "talk_count",
                         g->talk_count, "don_introduced", g->don_introduced);
}

/* deal(b) -> (roles, teams): tuples of Role and Team values, one a seat */
static PyObject *Core_deal(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    int n = self->cfg.n;
    PyObject *roles = PyTuple_New(n), *teams = PyTuple_New(n);
    if (!roles || !teams) {
        Py_XDECREF(roles);
        Py_XDECREF(teams);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(roles, s, PyLong_FromLong(g->roles[s]));
        PyTuple_SET_ITEM(teams, s, PyLong_FromLong(g->teams[s]));
    }
    return Py_BuildValue("(NN)", roles, teams);
}

/* inputs(b, start=0) -> [(seat, act, target, value, turn, day), ...] */
static PyObject *Core_inputs(CoreObject *self, PyObject *args) {
    int b, start = 0;
    if (!PyArg_ParseTuple(args, "i|i", &b, &start)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (start < 0) start = 0;
    int m = g->n_inputs > start ? g->n_inputs - start : 0;
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) {
        Input *x = &g->inputs[start + i];
        PyObject *t =
            Py_BuildValue("(iiiiii)", x->seat, x->act, x->target, x->value, x->turn, x->day);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *seq_code(const int8_t *p) {
    /* events.sequence_code: (seat + 1) << (5 * i), as a Python int (it may pass 64 bits) */
    int len = p[0];
    PyObject *code = PyLong_FromLong(0);
    for (int i = len - 1; i >= 0 && code; i--) {
        PyObject *five = PyLong_FromLong(5), *shifted = PyNumber_Lshift(code, five);
        Py_DECREF(five);
        Py_DECREF(code);
        if (!shifted) return NULL;
        PyObject *seat = PyLong_FromLong(p[1 + i] + 1);
        code = PyNumber_Or(shifted, seat);
        Py_DECREF(shifted);
        Py_DECREF(seat);
    }
    return code;
}

/* events(b, start=0) -> [(kind, actor, target, value, seen_by), ...] (log_events only) */
static PyObject *Core_events(CoreObject *self, PyObject *args) {
    int b, start = 0;
    if (!PyArg_ParseTuple(args, "i|i", &b, &start)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (!g->log_events) {
        PyErr_SetString(PyExc_RuntimeError, "this core keeps no events (log_events=False)");
        return NULL;
    }
    if (start < 0) start = 0;
    int m = g->n_events > start ? g->n_events - start : 0;
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) {
        Event *e = &g->events[start + i];
        PyObject *value =
            e->kind == E_VOTING ? seq_code(g->seq + e->value) : PyLong_FromLongLong(e->value);
        if (!value) {
            Py_DECREF(out);
            return NULL;
        }
        PyObject *t = Py_BuildValue("(iiiNi)", e->kind, e->actor, e->target, value, e->seen_by);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

