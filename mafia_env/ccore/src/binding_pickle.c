/* ------------------------------------------------------ copies and pickles: the binding */
/* The methods that copy a game (pickle.c does the copying): get_state/set_state as bytes,
   copy_game between cores, fork into a new core. */

/* copy_game(b, other, ob): game b of this core becomes a copy of game ob of `other` */
static PyObject *Core_copy_game(CoreObject *self, PyObject *args);

/* get_state(b) -> bytes: game b whole (its logs and observation rows included) */
static PyObject *Core_get_state(CoreObject *self, PyObject *arg) {
    Game *g = game_arg(self, arg);
    if (!g) return NULL;
    size_t size = game_state_size(&self->cfg, g);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out) return NULL;
    game_save(&self->cfg, g, PyBytes_AS_STRING(out));
    return out;
}

/* set_state(b, bytes): game b becomes the game get_state gave */
static PyObject *Core_set_state(CoreObject *self, PyObject *args) {
    int b;
    Py_buffer v;
    if (!PyArg_ParseTuple(args, "iy*", &b, &v)) return NULL;
    Game *g = game_at(self, b);
    CoreErr e = g ? game_load(&self->cfg, g, v.buf, (size_t)v.len) : CORE_OK;
    PyBuffer_Release(&v);
    if (!g) return NULL;
    if (e) return core_error(e, 0, 0);
    Py_RETURN_NONE;
}

static PyObject *Core_copy_game(CoreObject *self, PyObject *args) {
    int b, ob;
    CoreObject *other;
    if (!PyArg_ParseTuple(args, "iOi", &b, &other, &ob)) return NULL;
    if (Py_TYPE(other) != Py_TYPE(self)) {
        PyErr_SetString(PyExc_TypeError, "copy_game copies from another Core");
        return NULL;
    }
    Game *g = game_at(self, b), *src = game_at(other, ob);
    if (!g || !src) return NULL;
    if (!same_config(&self->cfg, &other->cfg)) {
        PyErr_SetString(PyExc_ValueError, "copy_game needs a core of the same variant and table");
        return NULL;
    }
    CoreErr e = game_copy(&self->cfg, g, src);
    if (e) return core_error(e, 0, 0);
    Py_RETURN_NONE;
}

/* fork(b) -> a new Core of one game: a copy of game b (the config copied, not parsed) */
static PyObject *Core_fork(CoreObject *self, PyObject *arg) {
    Game *src = game_arg(self, arg);
    if (!src) return NULL;
    CoreObject *out = (CoreObject *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (!out) return NULL;
    CoreErr e = config_copy(&out->cfg, &self->cfg);
    if (!e) {
        out->games = calloc(1, sizeof(Game));
        e = out->games ? CORE_OK : CORE_ERR_MEMORY;
    }
    if (!e) {
        out->num = 1;
        memcpy(out->deal, self->deal, sizeof(self->deal));
        out->has_deal = self->has_deal;
        e = game_clone(&self->cfg, &out->games[0], src);
    }
    if (e) {
        Py_DECREF(out);
        return core_error(e, 0, 0);
    }
    return (PyObject *)out;
}
