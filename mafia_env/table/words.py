"""The table's own words in every language: the server's messages, and the page's new words.

`MESSAGES[lang][key]` is what the server tells a client (an error on a seat's socket, the
answer to a refused request); `message(key, lang, **fields)` fills one in. A `TableError`
carries its key and fields, so each connection hears it in its own language. `PAGE` holds
the page's words that are the table's own (the older ones are `PAGE` of `mafia_env.lang`);
`view.page_words` sends both. No message names an internal id (``player_1``): seats are
numbers, as people see them.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "replaced": "this seat was opened in another window; this one is closed",
        "bad_lang": "language '{lang}' is not offered; languages: {langs}",
        "game_over": "the game is over",
        "not_started": "the game has not started: not every person has joined",
        "not_your_turn": "it is not your turn",
        "not_a_number": "action must be an action number; got {got}",
        "not_legal": "action {action} is not one you may take now",
        "say_text": "say must be text; got {got}",
        "talk_in_speech": "you may talk only in your speech",
        "remark_length": "a remark has 1 to {most} characters; yours has {got}",
        "too_many_remarks": "at most {most} remarks in one turn",
        "token_needed": "a token is needed to sit at this table",
        "wrong_watch_token": "wrong token for watching this table",
        "bad_seat": "seat must be a seat number 1..{n}; got {got}",
        "wrong_token": "wrong token for seat {s}",
        "no_table": "no such table",
        "expired": "this table expired: nobody played it for too long",
        "binary": "send JSON text frames, not binary ones",
        "too_long": "message too long ({got} characters; at most {most})",
        "not_json": 'a message must be JSON: {{"type": "act", "action": <number>}}',
        "unknown_message": 'unknown message; send {{"type": "act", "action": <number>}}',
        "watcher_acts": "a watcher cannot act",
        "too_deep": "the message is nested too deeply (JSON at most {most} levels deep)",
        "watchers_full": "this table has {most} watchers already (at most {most})",
        "address_full": "this address already has {mine} unfinished tables (at most {most}); "
        "a table nobody joins expires after {minutes} minutes",
        "address_rate": "this address made {made} tables in the last {window} s (at most "
        "{most}); try again later",
        "server_full": "the server is full: every table is in play; try later",
        "not_made": "{why}",
        "body_too_big": "the request is over {most} bytes; a table config is smaller",
        "wrong_key": "wrong token",
        "not_over": "the game is not over yet",
        "expired_early": "the table expired before its game ended",
    },
    "ru": {
        "replaced": "это место открыто в другом окне; это окно закрыто",
        "bad_lang": "язык '{lang}' не предлагается; языки: {langs}",
        "game_over": "игра окончена",
        "not_started": "игра не началась: сели ещё не все люди",
        "not_your_turn": "сейчас не ваш ход",
        "not_a_number": "действие — это номер действия; получено {got}",
        "not_legal": "действие {action} сейчас вам недоступно",
        "say_text": "реплика должна быть текстом; получено {got}",
        "talk_in_speech": "говорить можно только в своей речи",
        "remark_length": "в реплике от 1 до {most} символов; в вашей {got}",
        "too_many_remarks": "не больше {most} реплик за один ход",
        "token_needed": "чтобы сесть за этот стол, нужен ключ",
        "wrong_watch_token": "неверный ключ для просмотра этого стола",
        "bad_seat": "место — это номер места 1..{n}; получено {got}",
        "wrong_token": "неверный ключ для места {s}",
        "no_table": "такого стола нет",
        "expired": "срок стола истёк: в него слишком долго не играли",
        "binary": "отправляйте текстовые кадры JSON, не двоичные",
        "too_long": "сообщение слишком длинное ({got} символов; не больше {most})",
        "not_json": 'сообщение должно быть JSON: {{"type": "act", "action": <номер>}}',
        "unknown_message": 'неизвестное сообщение; отправьте {{"type": "act", "action": <номер>}}',
        "watcher_acts": "зритель не может ходить",
        "too_deep": "сообщение слишком глубоко вложено (JSON не глубже {most} уровней)",
        "watchers_full": "у этого стола уже {most} зрителей (не больше {most})",
        "address_full": "у этого адреса уже {mine} незаконченных столов (не больше {most}); "
        "стол, за который никто не сел, истекает через {minutes} мин",
        "address_rate": "с этого адреса создано {made} столов за последние {window} с (не "
        "больше {most}); попробуйте позже",
        "server_full": "сервер заполнен: за всеми столами играют; попробуйте позже",
        "not_made": "Стол не создан: {why}",
        "body_too_big": "запрос больше {most} байт; настройки стола меньше",
        "wrong_key": "неверный ключ",
        "not_over": "игра ещё не окончена",
        "expired_early": "срок стола истёк до конца игры",
    },
    "uk": {
        "replaced": "це місце відкрито в іншому вікні; це вікно закрито",
        "bad_lang": "мова '{lang}' не пропонується; мови: {langs}",
        "game_over": "гру закінчено",
        "not_started": "гра не почалася: сіли ще не всі люди",
        "not_your_turn": "зараз не ваш хід",
        "not_a_number": "дія — це номер дії; отримано {got}",
        "not_legal": "дія {action} зараз вам недоступна",
        "say_text": "репліка має бути текстом; отримано {got}",
        "talk_in_speech": "говорити можна лише у своїй промові",
        "remark_length": "у репліці від 1 до {most} символів; у вашій {got}",
        "too_many_remarks": "не більше {most} реплік за один хід",
        "token_needed": "щоб сісти за цей стіл, потрібен ключ",
        "wrong_watch_token": "хибний ключ для перегляду цього столу",
        "bad_seat": "місце — це номер місця 1..{n}; отримано {got}",
        "wrong_token": "хибний ключ для місця {s}",
        "no_table": "такого столу немає",
        "expired": "строк столу минув: у нього надто довго не грали",
        "binary": "надсилайте текстові кадри JSON, не двійкові",
        "too_long": "повідомлення задовге ({got} символів; не більше {most})",
        "not_json": 'повідомлення має бути JSON: {{"type": "act", "action": <номер>}}',
        "unknown_message": 'невідоме повідомлення; надішліть {{"type": "act", "action": <номер>}}',
        "watcher_acts": "глядач не може ходити",
        "too_deep": "повідомлення надто глибоко вкладене (JSON не глибше {most} рівнів)",
        "watchers_full": "у цього столу вже {most} глядачів (не більше {most})",
        "address_full": "у цієї адреси вже {mine} незакінчених столів (не більше {most}); "
        "стіл, за який ніхто не сів, спливає за {minutes} хв",
        "address_rate": "з цієї адреси створено {made} столів за останні {window} с (не "
        "більше {most}); спробуйте пізніше",
        "server_full": "сервер заповнений: за всіма столами грають; спробуйте пізніше",
        "not_made": "Стіл не створено: {why}",
        "body_too_big": "запит більший за {most} байтів; налаштування столу менші",
        "wrong_key": "хибний ключ",
        "not_over": "гру ще не закінчено",
        "expired_early": "строк столу минув до кінця гри",
    },
}

# The page's words that are the table's own (`static/app.js` reads them with the older ones).
PAGE: dict[str, dict[str, str]] = {
    "en": {
        "creating": "Creating the table…",
        "night_turn": "Night turn (s, two people or more)",
        "a_model": "model: {name}",
        "say_label": "Say to the table (Enter sends it)",
        "say_hint": "a remark of up to 280 characters",
        "offline": "Connection lost. Reconnecting… Your moves wait until it is back.",
        "more": "more",
        "reason_full": "This table has as many watchers as it takes now.",
    },
    "ru": {
        "creating": "Стол создаётся…",
        "night_turn": "Ночной ход (с, от двух людей)",
        "a_model": "модель: {name}",
        "say_label": "Сказать столу (Enter отправляет)",
        "say_hint": "реплика до 280 символов",
        "offline": "Связь потеряна. Переподключение… Ваши ходы подождут её.",
        "more": "ещё",
        "reason_full": "У этого стола сейчас столько зрителей, сколько он принимает.",
    },
    "uk": {
        "creating": "Стіл створюється…",
        "night_turn": "Нічний хід (с, від двох людей)",
        "a_model": "модель: {name}",
        "say_label": "Сказати столу (Enter надсилає)",
        "say_hint": "репліка до 280 символів",
        "offline": "Зв'язок втрачено. Перепід'єднання… Ваші ходи зачекають на нього.",
        "more": "ще",
        "reason_full": "У цього столу зараз стільки глядачів, скільки він приймає.",
    },
}


def message(key: str, lang: str = "en", /, **fields: Any) -> str:
    """Return message `key` in `lang` (English where the language lacks it), filled in."""
    table = MESSAGES.get(lang, MESSAGES["en"])
    return table.get(key, MESSAGES["en"][key]).format(**fields)


__all__ = ["MESSAGES", "PAGE", "message"]
