/* ------------------------------------------------------------- copies and pickles */
static int copy_logs(Game *dst, const Game *src) {
    dst->events = NULL;
    dst->seq = NULL;
    dst->inputs = NULL;
    dst->cap_events = dst->n_events;
    dst->cap_seq = dst->n_seq;
    dst->cap_inputs = dst->n_inputs;
    if (src->n_events) {
        dst->events = PyMem_Malloc(sizeof(Event) * (size_t)src->n_events);
        if (!dst->events) return -1;
        memcpy(dst->events, src->events, sizeof(Event) * (size_t)src->n_events);
    }
    if (src->n_seq) {
        dst->seq = PyMem_Malloc((size_t)src->n_seq);
        if (!dst->seq) return -1;
        memcpy(dst->seq, src->seq, (size_t)src->n_seq);
    }
    if (src->n_inputs) {
        dst->inputs = PyMem_Malloc(sizeof(Input) * (size_t)src->n_inputs);
        if (!dst->inputs) return -1;
        memcpy(dst->inputs, src->inputs, sizeof(Input) * (size_t)src->n_inputs);
    }
    return 0;
}

static int same_config(const Config *a, const Config *b) {
    return a->n == b->n && a->obs_size == b->obs_size && a->action_size == b->action_size &&
           a->private_size == b->private_size;
}

/* copy_game(b, other, ob): game b of this core becomes a copy of game ob of `other` */
static PyObject *Core_copy_game(CoreObject *self, PyObject *args);

/* get_state(b) -> bytes: game b whole (its logs and observation rows included) */
static PyObject *Core_get_state(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    size_t fl = obs_floats(c);
    size_t size = 4 * sizeof(int32_t) + sizeof(Game) + sizeof(float) * fl +
                  sizeof(Event) * (size_t)g->n_events + (size_t)g->n_seq +
                  sizeof(Input) * (size_t)g->n_inputs;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    int32_t head[4] = {STATE_VERSION, c->n, c->obs_size, c->action_size};
    memcpy(p, head, sizeof(head));
    p += sizeof(head);
    Game copy = *g;
    copy.events = NULL;
    copy.seq = NULL;
    copy.inputs = NULL;
    copy.obs = NULL;
    memcpy(p, &copy, sizeof(Game));
    p += sizeof(Game);
    memcpy(p, g->obs, sizeof(float) * fl);
    p += sizeof(float) * fl;
    if (g->n_events) memcpy(p, g->events, sizeof(Event) * (size_t)g->n_events);
    p += sizeof(Event) * (size_t)g->n_events;
    if (g->n_seq) memcpy(p, g->seq, (size_t)g->n_seq);
    p += g->n_seq;
    if (g->n_inputs) memcpy(p, g->inputs, sizeof(Input) * (size_t)g->n_inputs);
    return out;
}

/* set_state(b, bytes): game b becomes the game get_state gave */
static PyObject *Core_set_state(CoreObject *self, PyObject *args) {
    int b;
    Py_buffer v;
    if (!PyArg_ParseTuple(args, "iy*", &b, &v)) return NULL;
    Game *g = game_at(self, b);
    const Config *c = &self->cfg;
    size_t fl = obs_floats(c);
    const char *p = v.buf;
    int32_t head[4];
    Game src;
    if (!g) goto fail;
    if ((size_t)v.len < sizeof(head) + sizeof(Game) + sizeof(float) * fl) goto bad;
    memcpy(head, p, sizeof(head));
    if (head[0] != STATE_VERSION || head[1] != c->n || head[2] != c->obs_size ||
        head[3] != c->action_size)
        goto bad;
    p += sizeof(head);
    memcpy(&src, p, sizeof(Game));
    p += sizeof(Game);
    if (src.n_events < 0 || src.n_seq < 0 || src.n_inputs < 0) goto bad;
    size_t want = sizeof(head) + sizeof(Game) + sizeof(float) * fl +
                  sizeof(Event) * (size_t)src.n_events + (size_t)src.n_seq +
                  sizeof(Input) * (size_t)src.n_inputs;
    if ((size_t)v.len != want) goto bad;
    float *obs = g->obs;
    game_free_logs(g);
    *g = src;
    g->obs = obs;
    memcpy(obs, p, sizeof(float) * fl);
    p += sizeof(float) * fl;
    Game from = src;
    from.events = (Event *)p;
    p += sizeof(Event) * (size_t)src.n_events;
    from.seq = (int8_t *)p;
    p += src.n_seq;
    from.inputs = (Input *)p;
    if (copy_logs(g, &from) < 0) {
        game_free_logs(g);
        PyBuffer_Release(&v);
        return PyErr_NoMemory();
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
bad:
    PyErr_SetString(PyExc_ValueError, "not a saved game of this core's variant and table");
fail:
    PyBuffer_Release(&v);
    return NULL;
}

