"""The system prompt of a language-model seat, written from the variant's `Rules`.

Nothing here is written per variant: the rules are every knob of the table's `Rules` (the
variant file with its overrides), each said in the seat's language from `KNOB_WORDS` (the
English words are the knobs' own docs, `mafia_env.engine.rules.KNOBS`), with the role
table of the table size; then the seat's role and its team's goal, and how to reply.
Knobs that cannot matter at this table (a doctor's heals where no doctor is dealt) are left
out.
"""

from __future__ import annotations

from typing import Any

from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import KNOBS, Rules
from mafia_env.lang import table

# Knobs the prompt leaves out: how the environment treats an action outside the mask.
UNSAID = frozenset({"illegal_action"})

# A knob that matters only where one of these roles is dealt (or, for hunt_ratio, the hunt).
NEEDS: dict[str, frozenset[Role]] = {
    **dict.fromkeys(
        ("heal_repeat", "heal_self", "heal_skip", "heal_against", "heal_spent"),
        frozenset({Role.DOCTOR}),
    ),
    "companion_heal": frozenset({Role.PUTANA}),
    "putana_self": frozenset({Role.PUTANA}),
    "don_check": frozenset({Role.DON}),
    "don_known": frozenset({Role.DON}),
    "zero_night_don": frozenset({Role.DON}),
    "sheriff_check": frozenset({Role.SHERIFF}),
    "heal_told": frozenset({Role.DOCTOR}),
    "companion_reason": frozenset({Role.PUTANA}),
    "mafia_win_maniac": frozenset({Role.MANIAC}),
}

KNOB_WORDS: dict[str, dict[str, str]] = {
    "en": {name: knob.doc for name, knob in KNOBS.items()},
    "ru": {
        "zero_night": "игра начинается с нулевой ночи, когда мафия знакомится",
        "speech_acts": "заявлений в одной речи (K)",
        "claims": "в речи можно называть роли и проверки, обвинять и ручаться",
        "nominations": "когда выставляют кандидатов",
        "self_nomination": "говорящий может выставить себя",
        "self_vote": "можно голосовать за себя",
        "nominees_vote": "выставленные участвуют в голосовании",
        "silent_vote": "куда идёт голос того, кто не проголосовал",
        "single_nominee": "что ждёт единственного кандидата",
        "tie": "к чему ведёт ничья в голосовании",
        "tie_speeches": "при ничьей кандидаты говорят снова перед переголосованием",
        "last_word_vote": "изгнанный голосованием получает последнее слово",
        "last_word_night": "убитый ночью получает последнее слово",
        "reveal_on_death": "чью роль ведущий открывает, когда игрок уходит",
        "mafia_target_team": "мафия может стрелять в своих",
        "don_check": "дон каждую ночь проверяет игрока: шериф или нет",
        "sheriff_check": "шериф каждую ночь проверяет игрока: чёрный или нет",
        "check_skip": "проверку можно пропустить",
        "fouls_mute": "фолов, лишающих следующей дневной речи (0: никогда)",
        "fouls_remove": "фолов, удаляющих игрока (0: никогда)",
        "illegal_action": "что делает недопустимое действие",
        "max_days": "предел дней; после него ничья (пусто: 3n)",
        "mafia_count": "игроков команды мафии (пусто: по таблице ролей)",
        "night_order": "кто просыпается ночью, по порядку",
        "mafia_kill": "чей выстрел решает",
        "mafia_split": "к чему ведут разные выстрелы мафии",
        "mafia_pass": "мафиози может не стрелять",
        "self_shot": "может ли мафиози выстрелить в себя",
        "mafia_see_shots": "мафия видит выстрелы друг друга",
        "don_known": "мафия знает, кто дон (нет: пока он не представится)",
        "heal_repeat": "доктор может лечить одного игрока две ночи подряд",
        "heal_self": "сколько раз доктор может лечить себя (пусто: без предела)",
        "heal_skip": "доктор может не лечить",
        "heal_against": "какие выстрелы останавливает лечение",
        "heal_spent": "когда лечение засчитывается в пределы доктора",
        "night_announce": "как утром называют убитых",
        "putana_self": "путана может остаться у себя",
        "companion_heal": "лечение спасает гостя путаны от ухода вместе с ней",
        "questions": "вопросов «да/нет» за одну речь, каждый — заявление (0: нет)",
        "naming_threshold": "игрок, названный больше этого числа раз, выставлен",
        "nominee_speeches": "каждый кандидат говорит перед голосованием",
        "hunt": "мирные могут ночью заказать охоту",
        "hunt_ratio": "охота разрешена, пока мирных больше, чем это число раз по чёрным",
        "hunt_status": "заказ охоты называет статус, мафия или маньяк; верная цель с неверным "
        "статусом убивает охотника",
        "zero_night_don": "в нулевую ночь дон, ещё не известный мафии, ходит: может "
        "представиться (никого не убивают)",
        "nominee_ban": "где выставленные не голосуют",
        "zero_votes": "голосование, в котором никто не получил голосов",
        "mafia_win": "когда побеждает мафия",
        "mafia_win_maniac": "маньяк и победа мафии: мафия побеждает только после его смерти, "
        "или он считается среди остальных, которых мафия должна превзойти числом",
        "vote_count": "как считают голоса: одно тайное голосование, открытое целиком, или "
        "открыто, по одному кандидату в порядке выставления, каждый подсчёт виден до "
        "следующего (кто ещё не голосовал, поднимает руку за названного или ждёт)",
        "fouls_take_last_word": "игрок, набравший фолы для удаления, пока ждёт последнего "
        "слова (изгнан, убит), лишается его",
        "hunted_reveal": "чью роль утром называют, когда его убила охота: ничью, мафии или "
        "и маньяка",
        "companion_reason": "утром говорят, что гость путаны уходит вместе с ней (нет: он "
        "ещё одна жертва ночи, без причины)",
        "heal_told": "каждое утро доктору говорят, какое его лечение засчитано (нет: он "
        "узнаёт это только по тому, кого может лечить дальше)",
        "mafia_no_number": "к чему ведёт выбор мафии «без номера» (не стрелять, время вышло), "
        "где команда должна показать номер",
        "zero_night_meeting": "в нулевую ночь чёрные игроки молча договариваются: каждый может "
        "показать команде цель, дон последним (его слово); видит только команда",
        "shots_judged": "чьи выстрелы решают: каждый сделанный выстрел (удалённый позже той "
        "ночью стрелок всё равно считается) или только живых к утру",
        "discussion": "кругов общего обсуждения после круга речей, в каждом живой игрок "
        "делает одно заявление или молчит (0: нет)",
        "gestures": "кто может показать жест (да / нет / не знаю; повторно: убрать) во время "
        "чужой речи",
        "nominee_votes": "куда идёт голос выставленного, лишённого права голосовать",
    },
    "uk": {
        "zero_night": "гра починається з нульової ночі, коли мафія знайомиться",
        "speech_acts": "заяв в одній промові (K)",
        "claims": "у промові можна називати ролі й перевірки, звинувачувати й ручатися",
        "nominations": "коли висувають кандидатів",
        "self_nomination": "промовець може висунути себе",
        "self_vote": "можна голосувати за себе",
        "nominees_vote": "висунуті беруть участь у голосуванні",
        "silent_vote": "куди йде голос того, хто не проголосував",
        "single_nominee": "що чекає єдиного кандидата",
        "tie": "до чого веде нічия в голосуванні",
        "tie_speeches": "за нічиєї кандидати говорять знову перед переголосуванням",
        "last_word_vote": "вигнаний голосуванням отримує останнє слово",
        "last_word_night": "убитий уночі отримує останнє слово",
        "reveal_on_death": "чию роль ведучий відкриває, коли гравець іде",
        "mafia_target_team": "мафія може стріляти у своїх",
        "don_check": "дон щоночі перевіряє гравця: шериф чи ні",
        "sheriff_check": "шериф щоночі перевіряє гравця: чорний чи ні",
        "check_skip": "перевірку можна пропустити",
        "fouls_mute": "фолів, що позбавляють наступної денної промови (0: ніколи)",
        "fouls_remove": "фолів, що вилучають гравця (0: ніколи)",
        "illegal_action": "що робить недопустима дія",
        "max_days": "межа днів; після неї нічия (порожньо: 3n)",
        "mafia_count": "гравців команди мафії (порожньо: за таблицею ролей)",
        "night_order": "хто прокидається вночі, по черзі",
        "mafia_kill": "чий постріл вирішує",
        "mafia_split": "до чого ведуть різні постріли мафії",
        "mafia_pass": "мафіозі може не стріляти",
        "self_shot": "чи може мафіозі вистрілити в себе",
        "mafia_see_shots": "мафія бачить постріли одне одного",
        "don_known": "мафія знає, хто дон (ні: доки він не представиться)",
        "heal_repeat": "лікар може лікувати одного гравця дві ночі поспіль",
        "heal_self": "скільки разів лікар може лікувати себе (порожньо: без меж)",
        "heal_skip": "лікар може не лікувати",
        "heal_against": "які постріли зупиняє лікування",
        "heal_spent": "коли лікування зараховується в межі лікаря",
        "night_announce": "як уранці називають убитих",
        "putana_self": "путана може залишитися в себе",
        "companion_heal": "лікування рятує гостя путани від відходу разом із нею",
        "questions": "питань «так/ні» за одну промову, кожне — заява (0: немає)",
        "naming_threshold": "гравця, названого більше цього числа разів, висунуто",
        "nominee_speeches": "кожен кандидат говорить перед голосуванням",
        "hunt": "мирні можуть уночі замовити полювання",
        "hunt_ratio": "полювання дозволене, доки мирних більше, ніж це число разів по чорних",
        "hunt_status": "замовлення полювання називає статус, мафія чи маніяк; правильна ціль із "
        "хибним статусом убиває мисливця",
        "zero_night_don": "у нульову ніч дон, ще не відомий мафії, ходить: може представитися "
        "(нікого не вбивають)",
        "nominee_ban": "де висунуті не голосують",
        "zero_votes": "голосування, у якому ніхто не отримав голосів",
        "mafia_win": "коли перемагає мафія",
        "mafia_win_maniac": "маніяк і перемога мафії: мафія перемагає лише після його "
        "смерті, або він рахується серед інших, яких мафія має переважити числом",
        "vote_count": "як рахують голоси: одне таємне голосування, відкрите цілком, або "
        "відкрито, по одному кандидату в порядку висунення, кожен підрахунок видно до "
        "наступного (хто ще не голосував, піднімає руку за названого або чекає)",
        "fouls_take_last_word": "гравець, що набрав фоли для вилучення, поки чекає "
        "останнього слова (вигнаний, убитий), втрачає його",
        "hunted_reveal": "чию роль уранці називають, коли його вбило полювання: нічию, мафії "
        "чи й маніяка",
        "companion_reason": "уранці кажуть, що гість путани йде разом із нею (ні: він ще "
        "одна жертва ночі, без причини)",
        "heal_told": "щоранку лікарю кажуть, яке його лікування зараховане (ні: він дізнається "
        "це лише з того, кого може лікувати далі)",
        "mafia_no_number": "до чого веде вибір мафії «без номера» (не стріляти, час вийшов), "
        "де команда має показати номер",
        "zero_night_meeting": "у нульову ніч чорні гравці мовчки домовляються: кожен може "
        "показати команді ціль, дон останнім (його слово); бачить лише команда",
        "shots_judged": "чиї постріли вирішують: кожен зроблений постріл (вилучений пізніше тієї "
        "ночі стрілець усе одно рахується) чи лише живих до ранку",
        "discussion": "кіл загального обговорення після кола промов, у кожному живий гравець "
        "робить одну заяву або мовчить (0: немає)",
        "gestures": "хто може показати жест (так / ні / не знаю; повторно: прибрати) під час "
        "чужої промови",
        "nominee_votes": "куди йде голос висунутого, позбавленого права голосувати",
    },
}

# The words of a knob's value, by language (a value not listed reads as itself).
VALUE_WORDS: dict[str, dict[Any, str]] = {
    "en": {
        True: "yes", False: "no", None: "the default",
        "speech": "in the speeches", "round": "in a naming round after the speeches",
        "none": "none", "last_nominee": "to the last nominee", "abstain": "nowhere",
        "vote": "an ordinary vote", "skip_day1": "no vote on day 1, else an ordinary vote",
        "strict_majority": "a strict majority of the other players' votes",
        "revote_then_crash": "a re-vote, then a vote on removing all the tied players",
        "revote_then_all_leave": "a re-vote, then all the tied players leave",
        "revote_then_none": "a re-vote, then nobody leaves", "random": "a random one leaves",
        "all": "all", "maniac": "the maniac", "unanimous": "all shoot alike",
        "don": "the don", "executor": "all alike, with an executor named",
        "miss": "a miss", "forfeit": "the whole mafia leaves in the morning",
        "always": "always", "lone": "only when alone", "never": "never",
        "mafia": "the mafia", "on_shot": "only on a night the mafia shot",
        "plain": "plainly", "two_by_killer": "by killer when two killed",
        "by_killer": "always by killer", "putana": "the putana", "sheriff": "the sheriff",
        "doctor": "the doctor", "hunt": "the hunt",
        "day": "every ballot of the day they were nominated",
        "ballot": "only the ballots they stand in", "tie": "a tie of all the candidates",
        "spare": "nobody leaves", "parity": "at parity", "majority": "at a clear majority",
        "dead": "only once the maniac is dead", "counted": "the maniac counted among the others",
        "hidden": "one hidden ballot", "open": "in the open, nominee by nominee",
        "fired": "every shot as it was fired", "morning": "the shooters alive at morning",
        "named": "the listener a speech act names",
    },
    "ru": {
        True: "да", False: "нет", None: "по умолчанию",
        "speech": "в речах", "round": "в круге называния после речей", "none": "никакой",
        "last_nominee": "последнему кандидату", "abstain": "никуда",
        "vote": "обычное голосование", "skip_day1": "в первый день без голосования",
        "strict_majority": "строгое большинство голосов остальных",
        "revote_then_crash": "переголосование, потом голосование за уход всех",
        "revote_then_all_leave": "переголосование, потом уходят все",
        "revote_then_none": "переголосование, потом никто не уходит",
        "random": "уходит случайный", "all": "всех", "maniac": "маньяк",
        "unanimous": "все стреляют одинаково", "don": "дон",
        "executor": "все одинаково, с исполнителем", "miss": "промах",
        "forfeit": "утром уходит вся мафия", "always": "всегда",
        "lone": "только когда один", "never": "никогда", "mafia": "мафия",
        "on_shot": "только в ночь выстрела мафии", "plain": "просто",
        "two_by_killer": "по убийце, когда убили двое", "by_killer": "всегда по убийце",
        "putana": "путана", "sheriff": "шериф", "doctor": "доктор", "hunt": "охота",
        "day": "все голосования дня выставления", "ballot": "только те, где они кандидаты",
        "tie": "ничья всех кандидатов", "spare": "никто не уходит",
        "parity": "при равенстве", "majority": "при явном большинстве",
        "dead": "только после смерти маньяка", "counted": "маньяк считается среди остальных",
        "hidden": "одно тайное голосование", "open": "открыто, по одному кандидату",
        "fired": "каждый выстрел, как он сделан", "morning": "стрелки, живые к утру",
        "named": "слушатель, которого назвало заявление",
    },
    "uk": {
        True: "так", False: "ні", None: "за замовчуванням",
        "speech": "у промовах", "round": "у колі називання після промов", "none": "жодної",
        "last_nominee": "останньому кандидату", "abstain": "нікуди",
        "vote": "звичайне голосування", "skip_day1": "першого дня без голосування",
        "strict_majority": "сувора більшість голосів інших",
        "revote_then_crash": "переголосування, потім голосування за відхід усіх",
        "revote_then_all_leave": "переголосування, потім ідуть усі",
        "revote_then_none": "переголосування, потім ніхто не йде",
        "random": "іде випадковий", "all": "усіх", "maniac": "маніяк",
        "unanimous": "усі стріляють однаково", "don": "дон",
        "executor": "усі однаково, з виконавцем", "miss": "промах",
        "forfeit": "уранці йде вся мафія", "always": "завжди",
        "lone": "лише коли сам", "never": "ніколи", "mafia": "мафія",
        "on_shot": "лише в ніч пострілу мафії", "plain": "просто",
        "two_by_killer": "за вбивцею, коли вбили двоє", "by_killer": "завжди за вбивцею",
        "putana": "путана", "sheriff": "шериф", "doctor": "лікар", "hunt": "полювання",
        "day": "усі голосування дня висунення", "ballot": "лише ті, де вони кандидати",
        "tie": "нічия всіх кандидатів", "spare": "ніхто не йде",
        "parity": "за рівності", "majority": "за явної більшості",
        "dead": "лише після смерті маніяка", "counted": "маніяк рахується серед інших",
        "hidden": "одне таємне голосування", "open": "відкрито, по одному кандидату",
        "fired": "кожен постріл, як його зроблено", "morning": "стрільці, живі до ранку",
        "named": "слухач, якого назвала заява",
    },
}  # fmt: skip

FRAME: dict[str, dict[str, str]] = {
    "en": {
        "intro": "You play the social deduction game Mafia ({title}) as player {seat} at a "
        "table of {n} players.",
        "deal": "Roles dealt at this table: {roles}.",
        "rules": "The rules of this table:",
        "role": "Your role: {role}.",
        "town": "Your goal: you are on the town's side; find the mafia (and the maniac, if "
        "any) and vote them out. The town wins when none of them is left.",
        "mafia": "Your goal: you are on the mafia's side; the mafia wins when it is {when}. "
        "Keep your team hidden, shoot at night, mislead the town by day.",
        "parity": "as many as the others",
        "majority": "more than the others",
        "dead": " and the maniac is dead",
        "counted": " (the maniac counted among the others)",
        "maniac": "Your goal: you play alone; the maniac wins when only he and one other "
        "player are left.",
        "how": "Each turn you get what the moderator has told you so far and your legal "
        "actions as a numbered list. Reply with the number of one action. In a speech you may "
        "add a remark to the table after it: '3. Say: <up to 280 characters>'.",
    },
    "ru": {
        "intro": "Вы играете в «Мафию» ({title}) игроком {seat} за столом из {n} игроков.",
        "deal": "Роли за этим столом: {roles}.",
        "rules": "Правила этого стола:",
        "role": "Ваша роль: {role}.",
        "town": "Ваша цель: вы на стороне города; найдите мафию (и маньяка, если он есть) и "
        "изгоните их голосованием. Город побеждает, когда их не осталось.",
        "mafia": "Ваша цель: вы на стороне мафии; мафия побеждает, когда её {when}. "
        "Скрывайте свою команду, стреляйте ночью, путайте город днём.",
        "parity": "столько же, сколько остальных",
        "majority": "больше, чем остальных",
        "dead": ", а маньяк мёртв",
        "counted": " (маньяк считается среди остальных)",
        "maniac": "Ваша цель: вы играете один; маньяк побеждает, когда остались он и ещё "
        "один игрок.",
        "how": "Каждый ход вы получаете то, что сказал вам ведущий, и нумерованный список "
        "допустимых действий. Ответьте номером одного действия. В речи можно добавить "
        "реплику столу после него: «3. Скажу: <до 280 символов>».",
    },
    "uk": {
        "intro": "Ви граєте в «Мафію» ({title}) гравцем {seat} за столом із {n} гравців.",
        "deal": "Ролі за цим столом: {roles}.",
        "rules": "Правила цього столу:",
        "role": "Ваша роль: {role}.",
        "town": "Ваша мета: ви на боці міста; знайдіть мафію (і маніяка, якщо він є) і "
        "вигнайте їх голосуванням. Місто перемагає, коли їх не лишилося.",
        "mafia": "Ваша мета: ви на боці мафії; мафія перемагає, коли її {when}. "
        "Приховуйте свою команду, стріляйте вночі, плутайте місто вдень.",
        "parity": "стільки ж, скільки інших",
        "majority": "більше, ніж інших",
        "dead": ", а маніяк мертвий",
        "counted": " (маніяк рахується серед інших)",
        "maniac": "Ваша мета: ви граєте самі; маніяк перемагає, коли лишилися він і ще один "
        "гравець.",
        "how": "Щоходу ви отримуєте те, що сказав вам ведучий, і нумерований список "
        "допустимих дій. Відповідайте номером однієї дії. У промові можна додати репліку "
        "столу після неї: «3. Скажу: <до 280 символів>».",
    },
}


def value_words(value: Any, lang: str) -> str:
    """Return a knob's value in words of `lang`: yes/no, a number, a choice, a sequence."""
    words = VALUE_WORDS[lang]
    if isinstance(value, bool) or value is None:
        return words[value]
    if isinstance(value, str):
        return ", ".join(words.get(v, v.replace("_", " ")) for v in value.split())
    return str(value)


def rule_lines(rules: Rules, n: int, lang: str) -> list[str]:
    """Return one line per knob that matters at a table of `n`: its words and its value."""
    dealt = {r for r, c in rules.role_counts(n).items() if c}
    lines = []
    for name, value in rules.knob_values().items():
        if name in UNSAID or (name in NEEDS and not NEEDS[name] & dealt):
            continue
        if name in ("hunt_ratio", "hunt_status", "hunted_reveal") and not rules.hunt:
            continue
        if name == "fouls_take_last_word" and not rules.fouls_remove:
            continue
        words = KNOB_WORDS[lang].get(name) or KNOBS[name].doc  # a new knob: its English doc
        lines.append(f"- {words}: {value_words(value, lang)}")
    return lines


def system_prompt(rules: Rules, n: int, seat: int, role: Role, lang: str = "en") -> str:
    """Return the system prompt of seat number `seat` (1..n) dealt `role`, in `lang`."""
    frame, words = FRAME[lang], table(lang)
    roles = ", ".join(f"{c} × {words.ROLES[r.label]}" for r, c in rules.role_counts(n).items() if c)
    goal = {Team.TOWN: "town", Team.MAFIA: "mafia", Team.MANIAC: "maniac"}[role.team]
    when = frame[rules.mafia_win]  # COMMON-4, SPORT-W1, FORUM-W1: from the rules
    if any(r is Role.MANIAC for r, c in rules.role_counts(n).items() if c):
        when += frame[rules.mafia_win_maniac]
    return "\n".join(
        [
            frame["intro"].format(title=rules.title, seat=seat, n=n),
            frame["deal"].format(roles=roles),
            frame["rules"],
            *rule_lines(rules, n, lang),
            frame["role"].format(role=words.ROLES[role.label]),
            frame[goal].format(when=when),
            frame["how"],
        ]
    )


__all__ = [
    "FRAME",
    "KNOB_WORDS",
    "UNSAID",
    "VALUE_WORDS",
    "rule_lines",
    "system_prompt",
    "value_words",
]
