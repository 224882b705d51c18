"""The page in Arabic and English from one catalogue (analyzer/data/messages.json): every word
of the page has a key in both languages, no sentence is written in the page itself, the Arabic
page reads right to left with the game's Levantine words, its errors and reasons are Arabic, a
reader's choice is remembered, and a phone shows it whole."""

import json
import os
import re
import string
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import httpx2 as httpx
from conftest import page_app
from starlette.testclient import TestClient
from test_serve import HAND, chromium, live_url, open_tab  # noqa: F401  (live_url is a fixture)

from analyzer.core.messages import messages

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))
# keys the page builds from data (a strain letter, a policy, a verdict...), not written whole
FAMILIES = (
    "card_verdict.",
    "strain.",
    "policy.",
    "verdict.",
    "game.",
    "word.",
    "rules.key.",
    "ui.objective_",
    "result.objective_",
    "meta.",
    "variant.",
    "rules.t.",
    "rules.4.",
)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def plain(text: str) -> str:
    """The text without the isolates that keep numbers and hands left to right in Arabic."""
    return text.translate(ISOLATES)


def fill(lang: str, key: str, **params) -> str:
    return messages()[lang][key].format(**params)


class Keys(HTMLParser):
    """The catalogue keys of index.html, and any text written in it outside them."""

    def __init__(self):
        super().__init__()
        self.keys, self.text, self.stack = set(), [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.keys |= {v for k, v in attrs.items() if k == "data-t" or k.startswith("data-t-")}
        self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if data.strip() and self.stack and self.stack[-1] not in ("script", "style", "title", "h1", "option"):
            self.text.append(data.strip())


def page_keys():
    parser = Keys()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return parser


def script_keys() -> set[str]:
    return set(
        re.findall(r"""\bt\(["']([a-z_0-9]+\.[^"']+)["']""", (STATIC / "app.js").read_text(encoding="utf-8"))
    )


def test_every_key_of_the_page_and_its_script_is_in_both_languages():
    catalogue = messages()
    used = page_keys().keys | script_keys()
    assert used and used <= set(catalogue["en"]) and used <= set(catalogue["ar"]), used - set(catalogue["ar"])
    params = string.Formatter()
    for key in catalogue["en"]:  # the same parameters in both languages
        en = {f for _, f, _, _ in params.parse(catalogue["en"][key]) if f}
        ar = {f for _, f, _, _ in params.parse(catalogue["ar"][key]) if f}
        assert en == ar, key


def test_the_catalogue_has_no_sentence_the_page_does_not_use():
    source = (STATIC / "app.js").read_text(encoding="utf-8")
    python = "".join(p.read_text(encoding="utf-8") for p in Path(STATIC.parents[1], "analyzer").rglob("*.py"))
    used = page_keys().keys | script_keys()
    for key in messages()["en"]:
        if key.startswith(("reason.", "err.", "note.", "warn.", "card.why.")) and f'"{key}"' in python:
            continue  # the analyzer's reasons and errors, said by the page through the API's key
        assert key in used or key.startswith(FAMILIES) or f'"{key}"' in source, f"{key} is used nowhere"


def test_the_page_writes_no_sentence_of_its_own():
    """Every word of index.html comes from the catalogue: outside data-t there is no text
    (the name tarneeb400 and the seat numbers of a select aside)."""
    assert page_keys().text == []


def test_arabic_says_the_game_as_levantine_players_do():
    ar = messages()["ar"]
    words = " ".join(ar.values())
    for word in ("طرنيب", "أربعمية", "كبوت", "باص", "دبل", "لمّة"):
        assert word in words, word
    assert [ar[f"strain.{s}"] for s in "SHDC"] == ["بستوني", "كبة", "ديناري", "سباتي"]
    assert ar["word.pass"] == "باص" and ar["word.double"] == "دبل" and ar["word.kaboot"] == "كبوت"


def test_an_error_with_a_key_reaches_the_page_with_its_parameters():
    with TestClient(page_app(), base_url="http://127.0.0.1") as client:
        r = client.post("/api/hand", json={"hand": "AKQ5.KJ4.T93.866"})
        assert r.status_code == 400
        body = r.json()
        assert body["key"] == "err.card_twice" and body["error"] == "Error: " + fill(
            "en", body["key"], **body["params"]
        )
        assert "مكتوبة مرتين" in fill("ar", body["key"], **body["params"])
        r = client.post("/api/bid", json={"hand": HAND, "seat": 2, "scores": [0, 30, 0, 0], "bids": [14]})
        assert r.json()["key"] == "err.bid_range" and r.json()["params"] == {"seat": 1, "bid": 14}
        catalogue = client.get("/api/messages").json()
        assert catalogue == messages()


def test_the_notes_and_warnings_of_an_answer_carry_their_keys():
    """Each sentence the analyzer adds to an answer (a warning, a note) has its catalogue key
    beside it in ``said``, filling to the same English text."""
    from conftest import run

    bid = json.loads(run("bid", HAND, "--samples", "100", "--json").stdout)
    call = json.loads(run("bid", "--game", "tarneeb", HAND, "--samples", "1000", "--json").stdout)
    assert bid["said"]["warning"]["key"] == "warn.few_deals" and len(call["notes"]) == 2
    for answer in (bid, call):
        for path, said in answer["said"].items():
            node = answer
            for part in path.split("."):
                node = node[int(part)] if isinstance(node, list) else node[part]
            assert node == fill("en", said["key"], **said["params"]), path


def arabic_reasons(api: dict) -> list[str]:
    """The API's reasons filled in from the Arabic catalogue (strain words by their Arabic names)."""
    letter = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "none": "NT"}
    out = []
    for r in api["reasons"]:
        params = dict(r["params"])
        if params.get("strain") in letter:
            params["strain"] = fill("ar", f"strain.{letter[params['strain']]}")
        for name in ("call", "level", "contract"):
            if name in params:
                params[name] = arabic_call(str(params[name]))
        out.append(fill("ar", r["key"], **params))
    return out


def arabic_call(call: str) -> str:
    if call in ("pass", "double"):
        return fill("ar", f"word.{call}")
    m = re.fullmatch(r"(\d+)(S|H|D|C|NT)?", call)
    return f"{m[1]} {fill('ar', f'strain.{m[2]}')}" if m and m[2] else call


def latin_words(driver) -> set[str]:
    return set(LATIN_WORD.findall(driver.execute_script("return document.body.innerText")))


def test_the_arabic_page_reads_right_to_left_answers_in_arabic_and_is_remembered(live_url, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    ar = messages()["ar"]
    driver = chromium(tmp_path)
    try:
        open_tab(driver, live_url, "bid")
        assert driver.execute_script("return document.documentElement.dir") == "ltr"
        driver.find_element(By.ID, "lang").click()  # the reader chooses Arabic
        assert driver.execute_script(
            "return [document.documentElement.dir, document.documentElement.lang]"
        ) == ["rtl", "ar"]
        driver.get(live_url)  # and finds it again next time
        WebDriverWait(driver, 30).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, '#variant option[value="dananeer"]')
        )
        assert driver.execute_script("return document.documentElement.dir") == "rtl"
        for node in driver.find_elements(
            By.CSS_SELECTOR, ".tab, #page-bid h2 span[data-t], #page-bid label > span[data-t]"
        ):
            key = node.get_attribute("data-t")
            expected = fill("ar", key, n=node.get_attribute("data-n")) if "{n}" in ar[key] else ar[key]
            assert plain(node.get_attribute("textContent")) == expected, key
        assert driver.find_element(By.CSS_SELECTOR, '.tab[data-page="call"]').text.startswith("طرنيب")
        assert driver.find_element(By.CSS_SELECTOR, '.tab[data-page="bid"]').text.startswith("أربعمية")
        # errors in Arabic: the page's own and the analyzer's, with its parameters
        driver.find_element(By.ID, "ask").click()
        assert plain(driver.find_element(By.ID, "bid-error").text) == fill(
            "ar", "ui.error", text=fill("ar", "err.pick_13", n=0)
        )
        box = driver.find_element(By.ID, "hand-text")
        box.send_keys("AKQ5.KJ4.T93.86X")
        driver.find_element(By.ID, "read-hand").click()
        wait = WebDriverWait(driver, 30)
        wait.until(lambda d: d.find_element(By.ID, "hand-error").text)
        detail = fill("ar", "err.unknown_rank", rank="X", where="86X")
        assert plain(driver.find_element(By.ID, "hand-error").text) == fill("ar", "ui.error", text=detail)
        box.clear()
        for card in "SA SK SQ S5 HK HJ H4 DT D9 D3 C8 C6 C2".split():
            driver.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
        assert plain(driver.find_element(By.ID, "card-count").text) == fill("ar", "bid.card_count", n=13)
        driver.find_element(By.CSS_SELECTOR, "#page-bid details summary").click()
        driver.find_element(By.ID, "samples").send_keys("4096")
        driver.find_element(By.ID, "ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "bid-result")))
        api = httpx.post(live_url + "api/bid", json={"hand": HAND, "seat": 1, "scores": [0, 0, 0, 0], "variant": "dananeer",
                                                     "samples": 4096, "seed": 0}, timeout=120).json()  # fmt: skip
        assert int(driver.find_element(By.ID, "recommended-bid").text) == api["recommended"]
        shown = [plain(li.text) for li in driver.find_elements(By.CSS_SELECTOR, "#reasons li")]
        assert shown and shown == arabic_reasons(api)
        assert (
            plain(driver.find_element(By.CSS_SELECTOR, "#headline span[data-t]").text)
            == ar["bid.recommended"]
        )
        # what is still in Latin letters: card ranks, hands, the tool's name, the variant's name
        # and the command line (folded away); no English word
        allowed = {"tarneeb", "English", "JSON", "api"}  # tarneeb400, t400, /api/
        assert latin_words(driver) <= allowed, latin_words(driver) - allowed
        if os.environ.get("T400_SCREENSHOT_AR"):  # docs' picture: docs/serve-ar.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT_AR"])
        # back to English: the same answer said again, as the API says it
        driver.find_element(By.ID, "lang").click()
        assert driver.execute_script("return document.documentElement.dir") == "ltr"
        assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#reasons li")] == [
            x["text"] for x in api["reasons"]
        ]
        assert driver.find_element(By.ID, "card-count").text == "13 / 13 cards"
    finally:
        driver.quit()


def test_the_arabic_page_on_a_phone_shows_the_picker_and_the_answer_whole(live_url, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(tmp_path, phone=True)
    try:
        driver.get(live_url + "?lang=ar")
        WebDriverWait(driver, 30).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, '#variant option[value="dananeer"]')
        )
        assert driver.execute_script("return document.documentElement.dir") == "rtl"
        width = driver.execute_script("return window.innerWidth")
        inside = (
            "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.width, r.height];"
        )
        for button in driver.find_elements(By.CSS_SELECTOR, "#picker .card"):
            left, right, w, h = driver.execute_script(inside, button)
            assert 0 <= left and right <= width and w >= 30 and h >= 36, (
                button.get_attribute("data-card"),
                left,
                right,
            )
        for card in "SA SK SQ S5 HK HJ H4 DT D9 D3 C8 C6 C2".split():
            driver.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
        driver.find_element(By.CSS_SELECTOR, "#page-bid details summary").click()
        driver.find_element(By.ID, "samples").send_keys("4096")
        driver.find_element(By.ID, "ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "bid-result")))
        for element in ("recommended-bid", "reasons", "lang"):
            left, right, _, _ = driver.execute_script(inside, driver.find_element(By.ID, element))
            assert 0 <= left and right <= width, element
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        driver.execute_script("document.getElementById('bid-result').scrollIntoView()")
        if os.environ.get("T400_SCREENSHOT_PHONE_AR"):  # docs' picture: docs/serve-phone-ar.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT_PHONE_AR"])
    finally:
        driver.quit()


def test_tarneeb_in_arabic_takes_arabic_calls_and_names_the_suits(live_url, tmp_path):  # noqa: F811
    """The Tarneeb page in Arabic: "باص" typed in the auction is the API's pass, the answer's
    call and reason name the suit as players do, and the shared link holds the English API body."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = chromium(tmp_path)
    try:
        open_tab(driver, live_url + "?lang=ar", "call")
        driver.find_element(By.ID, "call-hand").send_keys("A5.AKQJ9843.K3.2")
        Select(driver.find_element(By.ID, "call-seat")).select_by_value("2")
        driver.find_element(By.ID, "call-auction").send_keys("باص")
        driver.find_element(By.CSS_SELECTOR, "#page-call details summary").click()
        driver.find_element(By.ID, "call-samples").send_keys("2048")
        driver.find_element(By.ID, "call-ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "call-result")))
        assert driver.find_element(By.ID, "call-error").text == ""
        link = driver.find_element(By.ID, "call-share-link").get_attribute("value")
        body = json.loads(urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["q"][0])
        assert body["auction"] == ["pass"] and body["seat"] == 2
        api = httpx.post(live_url + "api/bid", json=body, timeout=120).json()
        shown = plain(driver.find_element(By.ID, "recommended-call").text)
        expected = arabic_call(api["recommended"])
        if api["trump"]:
            expected = fill("ar", "call.naming", call=expected, trump=fill("ar", f"strain.{api['trump']}"))
        assert shown == expected
        assert [
            plain(li.text) for li in driver.find_elements(By.CSS_SELECTOR, "#call-reasons li")
        ] == arabic_reasons(api)
        strains = [
            plain(td.text)
            for td in driver.find_elements(By.CSS_SELECTOR, "#strain-table tbody tr td:first-child")
        ]
        assert strains and set(strains) <= {fill("ar", f"strain.{s}") for s in ("S", "H", "D", "C", "NT")}
        notes = plain(driver.find_element(By.ID, "call-notes").text)
        assert notes and not LATIN_WORD.search(notes), notes
        # the rules of Egyptian Tarneeb, said in Arabic from the keys the API gives its sentences
        driver.find_element(By.CSS_SELECTOR, '.tab[data-page="rules"]').click()
        Select(driver.find_element(By.ID, "rules-variant")).select_by_value("egyptian")
        wait = WebDriverWait(driver, 30)
        wait.until(lambda d: fill("ar", "rules.t.order_strain") in plain(d.find_element(By.ID, "rules-result").text))
        rules = plain(driver.find_element(By.ID, "rules-result").text)
        assert fill("ar", "rules.t.end_play_on", target=41) in rules and fill("ar", "rules.t.doubling") in rules
        assert not LATIN_WORD.search(rules), LATIN_WORD.findall(rules)
    finally:
        driver.quit()
