/* ------------------------------------------------------------------ the batched step */
/* bind(obs, masks, rewards, dones, truncated, winner, seat, team, teams, done_teams): the
   VectorMafia arrays the batched calls write (float32, int8, float32, bool, bool, int64,
   int64, int64, int64, int64) */
static PyObject *Core_bind(CoreObject *self, PyObject *args) {
    PyObject *o[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9]))
        return NULL;
    release_buffers(self);
    const Config *c = &self->cfg;
    Py_ssize_t B = self->num, n = c->n;
    Py_buffer *views[10] = {&self->b_obs,    &self->b_masks, &self->b_rewards, &self->b_dones,
                            &self->b_trunc,  &self->b_winner, &self->b_seat,   &self->b_team,
                            &self->b_teams, &self->b_done_teams};
    Py_ssize_t sizes[10] = {B * c->obs_size * 4, B * c->action_size, B * n * 4, B, B,
                            B * 8, B * 8, B * 8, B * n * 8, B * n * 8};
    for (int i = 0; i < 10; i++) {
        if (get_wbuf(o[i], views[i], sizes[i], "bind") < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(views[j]);
            return NULL;
        }
    }
    self->bound = 1;
    Py_RETURN_NONE;
}

static void write_slot(CoreObject *self, int b) {
    const Config *c = &self->cfg;
    Game *g = &self->games[b];
    int seat = g->actor;
    ((int64_t *)self->b_seat.buf)[b] = seat;
    ((int64_t *)self->b_team.buf)[b] = seat >= 0 ? g->teams[seat] : 0;
    write_obs(c, g, seat >= 0 ? seat : 0, (float *)self->b_obs.buf + (size_t)b * c->obs_size);
    write_mask(c, g, (int8_t *)self->b_masks.buf + (size_t)b * c->action_size);
}

static void new_from_slot(CoreObject *self, int b) {
    Game *g = &self->games[b];
    uint64_t seed = mt_bits63(&g->slot);
    g->n_events = g->n_seq = g->n_inputs = 0;
    game_start(&self->cfg, g, seed, self->has_deal ? self->deal : NULL);
    int64_t *teams = (int64_t *)self->b_teams.buf + (size_t)b * self->cfg.n;
    for (int s = 0; s < self->cfg.n; s++) teams[s] = g->teams[s];
}

/* reset_all(): a new game in every slot from its stream; the arrays written */
static PyObject *Core_reset_all(CoreObject *self, PyObject *noargs) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    for (int b = 0; b < self->num; b++) {
        new_from_slot(self, b);
        write_slot(self, b);
    }
    return check_oom(Py_NewRef(Py_None));
}

/* step_all(actions) -> -1, or the first game whose action is illegal (nothing is applied
   then). A game that ends starts the slot's next one at once. */
static PyObject *Core_step_all(CoreObject *self, PyObject *acts) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    const Config *c = &self->cfg;
    int B = self->num, n = c->n, A = c->action_size;
    Py_buffer v;
    if (PyObject_GetBuffer(acts, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (v.len != (Py_ssize_t)8 * B || v.itemsize != 8 || !v.format ||
        (strcmp(v.format, "l") != 0 && strcmp(v.format, "q") != 0 &&
         strcmp(v.format, "<q") != 0 && strcmp(v.format, "=q") != 0 &&
         strcmp(v.format, "<l") != 0 && strcmp(v.format, "=l") != 0)) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_TypeError, "actions must be a contiguous int64 array of B");
        return NULL;
    }
    const int64_t *a = v.buf;
    const int8_t *masks = self->b_masks.buf;
    for (int b = 0; b < B; b++)
        if (a[b] < 0 || a[b] >= A || masks[(size_t)b * A + a[b]] != 1) {
            PyBuffer_Release(&v);
            return PyLong_FromLong(b);
        }
    float *rewards = self->b_rewards.buf;
    uint8_t *dones = self->b_dones.buf, *trunc = self->b_trunc.buf;
    int64_t *winner = self->b_winner.buf, *done_teams = self->b_done_teams.buf;
    memset(rewards, 0, sizeof(float) * (size_t)B * n);
    memset(dones, 0, (size_t)self->num);
    memset(trunc, 0, (size_t)self->num);
    for (int b = 0; b < B; b++) winner[b] = -1;
    for (int b = 0; b < B; b++) {
        Game *g = &self->games[b];
        int x = (int)a[b];
        game_apply(c, g, c->dec_act[x], c->dec_target[x], c->dec_value[x]);
        if (g->winner >= 0 || g->offender >= 0) { /* VectorMafia._finish */
            dones[b] = 1;
            trunc[b] = (uint8_t)g->truncated;
            winner[b] = g->winner;
            for (int s = 0; s < n; s++) done_teams[(size_t)b * n + s] = g->teams[s];
            if (g->winner >= 0 && g->winner != O_DRAW)
                for (int s = 0; s < n; s++)
                    rewards[(size_t)b * n + s] = g->teams[s] == g->winner ? 1.0f : -1.0f;
            new_from_slot(self, b);
        }
        write_slot(self, b);
    }
    PyBuffer_Release(&v);
    return check_oom(PyLong_FromLong(-1));
}

/* memory() -> bytes held by the games, their rows and their logs (not the bound arrays) */
static PyObject *Core_memory(CoreObject *self, PyObject *noargs) {
    size_t total = sizeof(Game) * (size_t)self->num;
    for (int b = 0; b < self->num; b++) {
        Game *g = &self->games[b];
        total += sizeof(float) * obs_floats(&self->cfg) + sizeof(Event) * (size_t)g->cap_events +
                 (size_t)g->cap_seq + sizeof(Input) * (size_t)g->cap_inputs;
    }
    return PyLong_FromSize_t(total);
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
    if (g == src) Py_RETURN_NONE;
    float *obs = g->obs;
    game_free_logs(g);
    *g = *src;
    g->obs = obs;
    memcpy(obs, src->obs, sizeof(float) * obs_floats(&self->cfg));
    if (copy_logs(g, src) < 0) {
        game_free_logs(g);
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* fork(b) -> a new Core of one game: a copy of game b (the config copied, not parsed) */
static PyObject *Core_fork(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *src = game_at(self, b);
    if (!src) return NULL;
    CoreObject *out = (CoreObject *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (!out) return NULL;
    out->cfg = self->cfg;
    int A = self->cfg.action_size;
    out->cfg.dec_act = PyMem_Malloc(sizeof(int) * 3 * (size_t)A);
    out->games = PyMem_Calloc(1, sizeof(Game));
    if (!out->cfg.dec_act || !out->games) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    memcpy(out->cfg.dec_act, self->cfg.dec_act, sizeof(int) * 3 * (size_t)A);
    out->cfg.dec_target = out->cfg.dec_act + A;
    out->cfg.dec_value = out->cfg.dec_act + 2 * A;
    out->num = 1;
    memcpy(out->deal, self->deal, sizeof(self->deal));
    out->has_deal = self->has_deal;
    Game *g = &out->games[0];
    *g = *src;
    g->events = NULL;
    g->seq = NULL;
    g->inputs = NULL;
    g->obs = PyMem_Malloc(sizeof(float) * obs_floats(&self->cfg));
    if (!g->obs || copy_logs(g, src) < 0) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    memcpy(g->obs, src->obs, sizeof(float) * obs_floats(&self->cfg));
    return (PyObject *)out;
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

