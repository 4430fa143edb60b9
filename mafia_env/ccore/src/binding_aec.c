/* ------------------------------------------------------- the AEC env's calls: the binding */
/* The AEC env (CoreEngine in backends.py) takes one observation and one mask a move.
   aec_bind gives the core a float32 template the observations are written into (each handed out as a fresh copy, the
   template's own copy()), the env's shared cache of read-only masks (ccore.mask_cache: bytes
   -> int8 array), the function that fills it (ccore.shared_mask) and the all-zeros mask of
   the agents that do not act: a move's mask is looked up in the cache here, in one call. */

/* the cache's read-only array of mask m (a new reference), NULL on an error */
static PyObject *aec_mask_array(CoreObject *self, const int8_t *m) {
    PyObject *key = PyBytes_FromStringAndSize((const char *)m, self->cfg.action_size);
    if (!key) return NULL;
    PyObject *arr = PyDict_GetItemWithError(self->aec_cache, key);
    if (arr) {
        Py_INCREF(arr);
    } else if (!PyErr_Occurred()) {
        arr = PyObject_CallFunctionObjArgs(self->aec_make, self->aec_cache, key, NULL);
    }
    Py_DECREF(key);
    return arr;
}

static void aec_release(CoreObject *self) {
    if (self->aec_bound) PyBuffer_Release(&self->b_tmpl);
    self->aec_bound = 0;
    Py_CLEAR(self->aec_copy);
    for (int i = 0; i < AEC_POOL; i++) Py_CLEAR(self->aec_pool[i]);
    self->aec_next = 0;
    Py_CLEAR(self->aec_cache);
    Py_CLEAR(self->aec_make);
    Py_CLEAR(self->aec_no_mask);
}

/* aec_bind(template, cache, make, no_mask): see above; the template is the core's alone */
static PyObject *Core_aec_bind(CoreObject *self, PyObject *args) {
    PyObject *tmpl, *cache, *make, *no_mask;
    if (!PyArg_ParseTuple(args, "OO!OO", &tmpl, &PyDict_Type, &cache, &make, &no_mask))
        return NULL;
    if (!PyCallable_Check(make)) {
        PyErr_SetString(PyExc_TypeError, "aec_bind: make must be callable");
        return NULL;
    }
    PyObject *copy = PyObject_GetAttrString(tmpl, "copy");
    if (!copy) return NULL;
    Py_buffer v;
    if (get_wbuf(tmpl, &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "aec_bind") < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    aec_release(self);
    self->b_tmpl = v;
    self->aec_bound = 1;
    self->aec_copy = copy;
    self->aec_cache = Py_NewRef(cache);
    self->aec_make = Py_NewRef(make);
    self->aec_no_mask = Py_NewRef(no_mask);
    Py_RETURN_NONE;
}

static Game *aec_game(CoreObject *self, PyObject *arg) {
    if (!self->aec_bound) {
        PyErr_SetString(PyExc_RuntimeError, "aec_bind() first");
        return NULL;
    }
    return game_arg(self, arg);
}

/* Whether the array x of the pool can be handed out again: nobody else holds it (no
   reference, view, buffer or weak reference: the pool's is its only one) and it is still a
   writable C-contiguous float32 vector of the observation's length (what its last holder
   may have changed in place: shape, dtype, flags). Then its buffer is in *v. */
static int aec_reusable(CoreObject *self, PyObject *x, Py_buffer *v) {
    if (Py_REFCNT(x) != 1) return 0;
    Py_ssize_t wl = Py_TYPE(x)->tp_weaklistoffset;
    if (wl > 0 && *(PyObject **)((char *)x + wl) != NULL) return 0;
    if (PyObject_GetBuffer(x, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return -1;
    }
    const char *f = v->format;
    if (v->ndim == 1 && v->shape && v->shape[0] == self->cfg.obs_size && v->itemsize == 4 &&
        f && (strcmp(f, "f") == 0 || strcmp(f, "=f") == 0 ||
              (strcmp(f, "<f") == 0 && PY_LITTLE_ENDIAN)))
        return 1;
    PyBuffer_Release(v);
    return -1;
}

/* seat's observation as a fresh float32 array (a new reference): one the caller alone holds,
   either an array of the pool that nobody holds any more, rewritten whole, or a new one (a
   copy of the template) that joins the pool in place of the oldest */
static PyObject *aec_obs_array(CoreObject *self, Game *g, int seat) {
    for (int i = 0; i < AEC_POOL; i++) {
        PyObject *x = self->aec_pool[i];
        if (!x) continue;
        Py_buffer v;
        int ok = aec_reusable(self, x, &v);
        if (ok > 0) {
            write_obs(&self->cfg, g, seat, (float *)v.buf);
            PyBuffer_Release(&v);
            return Py_NewRef(x);
        }
        if (ok < 0) Py_CLEAR(self->aec_pool[i]); /* changed by its last holder: let it go */
    }
    write_obs(&self->cfg, g, seat, (float *)self->b_tmpl.buf);
    PyObject *x = PyObject_CallNoArgs(self->aec_copy);
    if (!x) return NULL;
    Py_XSETREF(self->aec_pool[self->aec_next], Py_NewRef(x));
    self->aec_next = (self->aec_next + 1) % AEC_POOL;
    return x;
}

static int aec_seat(CoreObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return -1;
    if (seat < 0 || seat >= self->cfg.n) {
        core_error(CORE_ERR_SEAT, seat, 0);
        return -1;
    }
    return (int)seat;
}

/* aec_observe(b, seat) -> seat's observation, a fresh float32 array */
static PyObject *Core_aec_observe(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "aec_observe(b, seat)");
        return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    int seat = aec_seat(self, args[1]);
    if (seat < 0) return NULL;
    return aec_obs_array(self, g, seat);
}

/* aec_obs_dict(b, seat, mask) -> {"observation": a fresh array, "action_mask": the acting
   seat's shared mask (`mask`, or the table's where it is None), the zeros for the others} */
static PyObject *Core_aec_obs_dict(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *k_obs = NULL, *k_mask = NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "aec_obs_dict(b, seat, mask)");
        return NULL;
    }
    if (!k_obs) {
        k_obs = PyUnicode_InternFromString("observation");
        k_mask = PyUnicode_InternFromString("action_mask");
        if (!k_obs || !k_mask) return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    int seat = aec_seat(self, args[1]);
    if (seat < 0) return NULL;
    PyObject *mask = self->aec_no_mask;
    if (game_acting(g, seat)) {
        mask = args[2];
        if (mask == Py_None) {
            int8_t m[MAXMASK];
            write_mask(&self->cfg, g, m);
            mask = aec_mask_array(self, m);
            if (!mask) return NULL;
        } else {
            Py_INCREF(mask);
        }
    } else {
        Py_INCREF(mask);
    }
    PyObject *obs = aec_obs_array(self, g, seat), *d = NULL;
    if (obs) d = PyDict_New();
    if (d && (PyDict_SetItem(d, k_obs, obs) < 0 || PyDict_SetItem(d, k_mask, mask) < 0))
        Py_CLEAR(d);
    Py_XDECREF(obs);
    Py_DECREF(mask);
    return d;
}

/* aec_mask(b) -> the acting seat's shared mask array (zeros once the game is over): `mask`
   from the table */
static PyObject *Core_aec_mask(CoreObject *self, PyObject *arg) {
    Game *g = aec_game(self, arg);
    if (!g) return NULL;
    int8_t m[MAXMASK];
    write_mask(&self->cfg, g, m);
    return aec_mask_array(self, m);
}

/* aec_play(b, index) -> None where the index is not legal now (nothing is applied), else
   (the acting seat now, its shared mask array), or (-1, None) once the game is over: `play`
   with the mask from the table */
static PyObject *Core_aec_play(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "aec_play(b, index)");
        return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    long a = PyLong_AsLong(args[1]);
    if (a == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear(); /* an int beyond a C long is no action: not legal */
        Py_RETURN_NONE;
    }
    int8_t m[MAXMASK];
    int actor = game_play(&self->cfg, g, a, m);
    if (actor == PLAY_ILLEGAL) Py_RETURN_NONE;
    if (g_oom) return check_oom(NULL);
    if (actor < 0) return Py_BuildValue("(iO)", -1, Py_None);
    PyObject *arr = aec_mask_array(self, m);
    if (!arr) return NULL;
    PyObject *out = PyTuple_New(2);
    if (!out) {
        Py_DECREF(arr);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(actor));
    PyTuple_SET_ITEM(out, 1, arr);
    return out;
}

