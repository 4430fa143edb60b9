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
