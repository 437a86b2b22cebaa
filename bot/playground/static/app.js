// Настолка playground: shows the fake Telegram's chats live (server-sent events) and turns
// clicks into what Telegram would send the bot. Plain JS, no build step, no network but
// this page's own server. Every text from the chat is put in the page as text (never HTML).
"use strict";

const COLORS = [
  // [name colour, avatar gradient from, to] — like Telegram's peer colours
  ["#c03d33", "#ff885e", "#ff516a"],
  ["#4fad2d", "#a0de7e", "#54cb68"],
  ["#d09306", "#ffcd6a", "#ffa85c"],
  ["#168acd", "#72d5fd", "#2a9ef1"],
  ["#8544d6", "#e0a2f3", "#d669ed"],
  ["#2996ad", "#53edd6", "#28c9b7"],
];
const BOT_COLORS = ["#3390ec", "#5fb0f6", "#3d7fd9"];

const S = {
  bot: null,
  groupId: null,
  members: [],
  chats: new Map(), // chat id → {info, messages: Map(message id → view)}
  me: null, // selected member id
  view: "group", // "group" | "private"
  unread: new Map(), // member id → unread bot messages in his private chat
  commands: {}, // "group" | "private" → the bot's command menu
  connected: false,
};

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
};

// ------------------------------------------------------------------ who is who

function memberIndex(id) {
  return S.members.findIndex((m) => m.id === id);
}
function colorsOf(userId) {
  if (S.bot && userId === S.bot.id) return BOT_COLORS;
  const i = memberIndex(userId);
  return COLORS[(i >= 0 ? i : Math.abs(Number(userId) || 0)) % COLORS.length];
}
function avatar(name, userId, emoji) {
  const [, a1, a2] = colorsOf(userId);
  const node = el("div", "avatar", emoji || initials(name));
  node.style.setProperty("--a1", a1);
  node.style.setProperty("--a2", a2);
  return node;
}
function initials(name) {
  const parts = String(name || "?").trim().split(/\s+/);
  return parts.slice(0, 2).map((p) => Array.from(p)[0] || "").join("").toUpperCase();
}
function me() {
  return S.members.find((m) => m.id === S.me) || S.members[0];
}
function currentChatId() {
  return S.view === "group" ? S.groupId : S.me;
}

// ------------------------------------------------------------------ text with entities

const SAFE_URL = /^(https?:\/\/|tg:\/\/)/i;

function entityNode(entity, content) {
  switch (entity.type) {
    case "bold": return el("b");
    case "italic": return el("i");
    case "underline": return el("u");
    case "strikethrough": return el("s");
    case "code": return el("code");
    case "pre": return el("pre");
    case "blockquote":
    case "expandable_blockquote": return el("blockquote");
    case "spoiler": {
      const node = el("span", "spoiler");
      node.addEventListener("click", () => node.classList.add("shown"));
      return node;
    }
    case "text_link":
    case "url": {
      const href = entity.type === "url" ? content : entity.url;
      if (!SAFE_URL.test(href || "")) return el("span", "link");
      const link = el("a");
      link.href = href;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      return link;
    }
    case "bot_command": {
      return commandLink(content, null); // its text is added by renderText
    }
    case "mention":
    case "text_mention":
    case "hashtag":
    case "cashtag":
    case "email":
    case "phone_number":
      return el("span", "link");
    default:
      return el("span");
  }
}

function commandLink(command, label = command) {
  const link = el("a", "cmd", label);
  link.href = "#";
  link.addEventListener("click", (event) => {
    event.preventDefault();
    sendText(command);
  });
  return link;
}

// Telegram's apps make /commands in a bot's text clickable even without an entity.
const COMMAND = /(^|[\s(«"])(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?)(?![\w/])/g;
function appendText(parent, text, linkify) {
  if (!linkify) {
    parent.append(text);
    return;
  }
  let last = 0;
  for (const match of text.matchAll(COMMAND)) {
    const start = match.index + match[1].length;
    if (start > last) parent.append(text.slice(last, start));
    parent.append(commandLink(match[2]));
    last = start + match[2].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

const NO_LINKS = new Set(["code", "pre", "text_link", "url", "bot_command", "mention", "text_mention"]);

// Telegram's offsets count UTF-16 code units, as JavaScript strings do.
function renderText(text, entities) {
  const root = document.createDocumentFragment();
  const list = (entities || [])
    .filter((e) => e.length > 0)
    .slice()
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  const build = (parent, start, end, items, linkify) => {
    let pos = start;
    let i = 0;
    while (i < items.length) {
      const entity = items[i];
      if (entity.offset < pos || entity.offset >= end) { i += 1; continue; }
      if (entity.offset > pos) appendText(parent, text.slice(pos, entity.offset), linkify);
      const stop = Math.min(entity.offset + entity.length, end);
      const inner = [];
      let j = i + 1;
      while (j < items.length && items[j].offset < stop) { inner.push(items[j]); j += 1; }
      const node = entityNode(entity, text.slice(entity.offset, stop));
      build(node, entity.offset, stop, inner, linkify && !NO_LINKS.has(entity.type));
      parent.append(node);
      pos = stop;
      i = j;
    }
    if (pos < end) appendText(parent, text.slice(pos, end), linkify);
  };
  build(root, 0, text.length, list, true);
  return root;
}

// ------------------------------------------------------------------ messages

function timeOf(view) {
  const d = new Date(view.date * 1000);
  return d.toLocaleTimeString("ru-RU", { hour: "2-digit", minute: "2-digit" });
}

function serviceText(view) {
  const s = view.service || {};
  const who = (view.from && view.from.name) || "Кто-то";
  if (s.new_chat_members) {
    const names = s.new_chat_members.map((u) => u.first_name).join(", ");
    return names === who ? `${who} вступает в группу` : `${who} добавляет: ${names}`;
  }
  if (s.left_chat_member) return `${s.left_chat_member.first_name} покидает группу`;
  if (s.migrate_to_chat_id || s.migrate_from_chat_id) return "Группа стала супергруппой";
  return null;
}

function keyboardNode(view) {
  const rows = view.keyboard || [];
  if (!rows.length) return null;
  const kb = el("div", "keyboard");
  for (const row of rows) {
    const r = el("div", "krow");
    for (const button of row) {
      const b = el("button", "kbtn", button.text);
      b.type = "button";
      if (button.callback_data !== undefined) {
        b.dataset.data = button.callback_data;
        b.addEventListener("click", () => press(view, button, b));
      } else if (button.url !== undefined) {
        b.classList.add("url");
        b.addEventListener("click", () => openUrl(button.url));
      } else {
        b.addEventListener("click", () => toast("В песочнице эта кнопка не работает"));
      }
      r.append(b);
    }
    kb.append(r);
  }
  return kb;
}

// An ephemeral message (Bot API 10.2) is shown only to its one member.
function hiddenFromMe(view) {
  return view.visible_to !== undefined && view.visible_to !== null && view.visible_to !== S.me;
}

function messageNode(view, previous) {
  const service = serviceText(view);
  const media = view.photo || view.animation;  // a picture, or a /replay's animation
  if (!view.text && !view.caption && !media && service !== null) {
    const node = el("div", "service", service);
    node.dataset.id = view.message_id;
    return node;
  }
  const fromId = view.from ? view.from.id : null;
  const isGroup = view.chat_id === S.groupId;
  const out = fromId !== null && fromId === S.me;
  const row = el("div", `row msg ${out ? "out" : "in"}${isGroup ? "" : " private"}`);
  row.dataset.id = view.message_id;
  row.dataset.chat = view.chat_id;
  row.dataset.from = view.from_bot ? "bot" : String(fromId);
  row.dataset.edits = view.edit_count;
  const sameSender = previous && previous.from && view.from && previous.from.id === fromId
    && !serviceText(previous) && !(previous.keyboard || []).length;
  if (sameSender) row.classList.add("cont");
  const name = view.from ? view.from.name : "";
  if (isGroup && !out) row.append(avatar(name, fromId, view.from_bot ? "🎲" : null));

  const stack = el("div", "stack");
  if (media && media.width && media.height) {
    stack.style.setProperty("--ar", String(media.width / media.height));
  }
  const bubble = el("div", "bubble");
  if (isGroup && !out && !sameSender) {
    const sender = el("div", "sender", name);
    sender.style.color = colorsOf(fromId)[0];
    bubble.append(sender);
  }
  if (view.photo) {
    row.classList.add("has-photo");
    const img = el("img", "photo");
    img.alt = "Картинка";
    if (view.photo.width && view.photo.height) {
      img.width = view.photo.width;
      img.height = view.photo.height;
    }
    if (view.photo.url) img.src = view.photo.url;
    img.dataset.fileId = view.photo.file_id;
    bubble.append(img);
  } else if (view.animation) {
    // a GIF plays in an <img>; an MP4 animation (Telegram's other kind) in a muted loop
    row.classList.add("has-photo");
    const video = view.animation.mime_type === "video/mp4";
    const node = el(video ? "video" : "img", "photo animation");
    if (video) {
      Object.assign(node, { autoplay: true, loop: true, muted: true, playsInline: true });
    } else {
      node.alt = "Анимация";
    }
    if (view.animation.width && view.animation.height) {
      node.width = view.animation.width;
      node.height = view.animation.height;
    }
    if (view.animation.url) node.src = view.animation.url;
    node.dataset.fileId = view.animation.file_id;
    bubble.append(node);
  }
  if (view.ephemeral_id !== undefined && view.ephemeral_id !== null) {
    row.classList.add("ephemeral");
    bubble.append(el("div", "only-you", "👁 видно только вам"));
  }
  const content = view.text !== null && view.text !== undefined ? view.text : view.caption;
  const entities = view.text !== null && view.text !== undefined ? view.entities : view.caption_entities;
  const text = el("div", "text");
  if (content) text.append(renderText(content, entities));
  const meta = el("span", "meta", (view.edit_count ? "изменено " : "") + timeOf(view));
  if (content) text.append(meta);
  else if (media) { bubble.classList.add("photo-only"); bubble.append(meta); }
  bubble.append(text);
  stack.append(bubble);
  const kb = keyboardNode(view);
  if (kb) stack.append(kb);
  row.append(stack);
  return row;
}

// Replace a message's node; keep the old picture until the new one has loaded (no flicker).
function replaceNode(old, node) {
  const oldImg = old.querySelector && old.querySelector("img.photo");
  const newImg = node.querySelector && node.querySelector("img.photo");
  if (oldImg && newImg && oldImg.dataset.fileId !== newImg.dataset.fileId && !newImg.complete) {
    const src = newImg.src;
    newImg.src = oldImg.src;
    newImg.dataset.fileId = oldImg.dataset.fileId;
    const loader = new Image();
    loader.onload = () => {
      newImg.src = src;
      newImg.dataset.fileId = src.split("/").pop();
    };
    loader.src = src;
  }
  old.replaceWith(node);
}

// ------------------------------------------------------------------ rendering the page

function renderMembers() {
  const box = $("#members");
  box.replaceChildren();
  for (const m of S.members) {
    const chip = el("button", "chip");
    chip.type = "button";
    chip.setAttribute("role", "tab");
    chip.setAttribute("aria-selected", String(m.id === S.me));
    chip.dataset.member = m.id;
    chip.title = `Действовать от имени: ${m.name}`;
    chip.append(avatar(m.name, m.id));
    const t = el("span", "chip-text");
    t.append(el("span", "chip-name", m.name));
    t.append(el("span", "chip-sub", m.username ? `@${m.username}` : ""));
    chip.append(t);
    const n = S.unread.get(m.id) || 0;
    if (n) chip.append(el("span", "badge", String(n)));
    chip.addEventListener("click", () => selectMember(m.id));
    box.append(chip);
  }
}

function renderChats() {
  const box = $("#chats");
  box.replaceChildren();
  const group = S.chats.get(S.groupId);
  const items = [
    ["group", (group && group.info.title) || "Группа", `${(group && group.info.members) || 0} участника и бот`, "👥"],
    ["private", S.bot ? S.bot.first_name : "Бот", `личный чат: ${me() ? me().name : ""}`, "🎲"],
  ];
  for (const [key, title, sub, emoji] of items) {
    const chip = el("button", "chip");
    chip.type = "button";
    chip.setAttribute("role", "tab");
    chip.setAttribute("aria-selected", String(S.view === key));
    chip.dataset.view = key;
    chip.append(avatar(title, key === "group" ? -1 : S.bot && S.bot.id, emoji));
    const t = el("span", "chip-text");
    const label = el("span", "chip-name");
    label.append(el("span", "chip-emoji", emoji), title);
    t.append(label);
    t.append(el("span", "chip-sub", sub));
    chip.append(t);
    const n = key === "private" ? S.unread.get(S.me) || 0 : 0;
    if (n) chip.append(el("span", "badge", String(n)));
    chip.addEventListener("click", () => selectView(key));
    box.append(chip);
  }
}

function renderHeader() {
  const head = $("#chat-avatar");
  const chat = S.chats.get(currentChatId());
  if (S.view === "group") {
    head.replaceWith(Object.assign(avatar("Н", -1, "👥"), { id: "chat-avatar" }));
    $("#chat-title").textContent = chat ? chat.info.title : "Группа";
    const names = S.members.map((m) => m.name).join(", ");
    $("#chat-subtitle").textContent = S.connected
      ? `${names} и бот @${S.bot ? S.bot.username : ""}` : "нет связи с песочницей…";
  } else {
    head.replaceWith(Object.assign(avatar("Б", S.bot && S.bot.id, "🎲"), { id: "chat-avatar" }));
    $("#chat-title").textContent = `${S.bot ? S.bot.first_name : "Бот"} — личный чат ${me().name}`;
    $("#chat-subtitle").textContent = S.connected ? "бот" : "нет связи с песочницей…";
  }
  $("#chat-subtitle").classList.toggle("offline", !S.connected);
}

function renderQuick() {
  const box = $("#quick");
  box.replaceChildren();
  // the bot's own command menu (setMyCommands) for this kind of chat
  const menu = (S.commands[S.view] || []).map((c) => [`/${c.command}`, c.description]);
  const cmds = menu.length ? menu : [["/new", ""], ["/rules", ""], ["/help", ""]];
  for (const [cmd, description] of cmds) {
    const b = el("button", "qcmd", cmd);
    b.type = "button";
    if (description) b.title = description;
    b.addEventListener("click", () => sendText(cmd));
    box.append(b);
  }
  $("#text").placeholder = `Сообщение от имени ${me() ? me().name : ""}`;
}

function introNode() {
  const node = el("div", "service intro");
  node.append(
    "Песочница: настоящий бот, локальный «Telegram». Выберите участника и напишите ",
  );
  node.append(commandLink("/new"), " — остальные присоединятся кнопкой «Играть».");
  return node;
}

function renderMessages() {
  const box = $("#messages");
  box.replaceChildren();
  const chat = S.chats.get(currentChatId());
  if (S.view === "group") box.append(introNode());
  if (!chat) return;
  let previous = null;
  for (const view of chat.messages.values()) {
    if (view.deleted || hiddenFromMe(view)) continue;
    box.append(messageNode(view, previous));
    previous = view;
  }
  scrollToEnd(true);
}

function renderAll() {
  renderMembers();
  renderChats();
  renderHeader();
  renderQuick();
  renderMessages();
  if (S.view === "private") clearUnread(S.me);
}

function nearBottom() {
  const box = $("#messages");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 160;
}
function scrollToEnd(force) {
  const box = $("#messages");
  if (force || nearBottom()) {
    box.scrollTop = box.scrollHeight;
    for (const img of box.querySelectorAll("img.photo")) {
      if (!img.complete) img.addEventListener("load", () => { if (force || nearBottom()) box.scrollTop = box.scrollHeight; }, { once: true });
    }
  }
}

function upsert(view) {
  let chat = S.chats.get(view.chat_id);
  if (!chat) {
    chat = { info: { id: view.chat_id }, messages: new Map() };
    S.chats.set(view.chat_id, chat);
  }
  const isNew = !chat.messages.has(view.message_id);
  chat.messages.set(view.message_id, view);
  if (isNew && view.from_bot && !view.deleted && view.chat_id !== S.groupId
      && !(S.view === "private" && S.me === view.chat_id && document.visibilityState !== "hidden")) {
    S.unread.set(view.chat_id, (S.unread.get(view.chat_id) || 0) + 1);
    renderMembers();
    renderChats();
  }
  if (view.chat_id !== currentChatId()) return;
  const box = $("#messages");
  const stick = nearBottom();
  const old = box.querySelector(`[data-id="${view.message_id}"]`);
  if (view.deleted || hiddenFromMe(view)) {
    if (old) old.remove();
    return;
  }
  const views = [...chat.messages.values()].filter((v) => !v.deleted && !hiddenFromMe(v));
  const index = views.findIndex((v) => v.message_id === view.message_id);
  const node = messageNode(view, index > 0 ? views[index - 1] : null);
  if (old) replaceNode(old, node);
  else box.append(node);
  if (stick || (isNew && view.from && view.from.id === S.me)) scrollToEnd(true);
}

function clearUnread(memberId) {
  if (S.unread.get(memberId)) {
    S.unread.delete(memberId);
    renderMembers();
    renderChats();
  }
}

// ------------------------------------------------------------------ navigation (URL keeps it)

function saveLocation() {
  const params = new URLSearchParams(location.search);
  params.set("as", me().name);
  const hash = S.view === "private" ? "#private" : "";
  history.replaceState(null, "", `?${params}${hash}`);
  document.title = `${me().name} — Настолка, песочница`;
}
function selectMember(id) {
  S.me = id;
  saveLocation();
  renderAll();
}
function selectView(view) {
  S.view = view;
  saveLocation();
  renderAll();
}
function initialMember() {
  const want = new URLSearchParams(location.search).get("as");
  if (want) {
    const found = S.members.find((m) => String(m.id) === want || m.name.toLowerCase() === want.toLowerCase());
    if (found) return found.id;
  }
  return S.members.length ? S.members[0].id : null;
}

// ------------------------------------------------------------------ actions

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return response.json();
}

async function sendText(text) {
  text = String(text || "").trim();
  if (!text) return;
  try {
    await post("/api/send", { user: S.me, chat: S.view, text });
  } catch (error) {
    toast(`Не отправлено: ${error.message}`);
  }
}

async function press(view, button, node) {
  if (node.classList.contains("pending")) return;
  node.classList.add("pending");
  try {
    const answer = await post("/api/press", {
      user: S.me, chat_id: view.chat_id, message_id: view.message_id, data: button.callback_data,
      ephemeral_id: view.ephemeral_id === undefined ? null : view.ephemeral_id,
    });
    if (answer.error) toast(answer.error);
    else if (answer.text && answer.show_alert) alertBox(answer.text);
    else if (answer.text) toast(answer.text);
    if (answer.url) openUrl(answer.url);
  } catch (error) {
    toast(`Нажатие не дошло: ${error.message}`);
  } finally {
    node.classList.remove("pending");
  }
}

function openUrl(url) {
  const bot = S.bot ? S.bot.username.toLowerCase() : "";
  const match = /^https?:\/\/(t\.me|telegram\.me)\/([A-Za-z0-9_]+)(\?.*)?$/i.exec(url || "");
  if (match && match[2].toLowerCase() === bot) {
    if (/[?&]startgroup=/.test(match[3] || "")) {
      toast(`В песочнице бот уже в группе «${S.chats.get(S.groupId).info.title}»`);
      selectView("group");
    } else {
      selectView("private");
    }
    return;
  }
  if (SAFE_URL.test(url || "") && !/^tg:/i.test(url)) window.open(url, "_blank", "noopener");
  else toast(url);
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  box.style.animation = "none";
  void box.offsetWidth;
  box.style.animation = "";
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 1800 + 40 * text.length);
}

function alertBox(text) {
  const modal = $("#modal");
  modal.querySelector(".modal-title").textContent = S.bot ? S.bot.first_name : "Бот";
  modal.querySelector(".modal-text").textContent = text;
  modal.hidden = false;
  modal.querySelector(".modal-ok").focus();
}
function closeAlert() {
  $("#modal").hidden = true;
}

// ------------------------------------------------------------------ live connection

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("snapshot", (event) => {
    const snap = JSON.parse(event.data);
    S.bot = snap.bot;
    S.groupId = snap.group_id;
    S.members = snap.members;
    S.commands = snap.commands || {};
    S.chats = new Map();
    for (const chat of snap.chats) {
      const { messages, ...info } = chat;
      S.chats.set(chat.id, { info, messages: new Map(messages.map((m) => [m.message_id, m])) });
    }
    if (S.me === null || memberIndex(S.me) < 0) S.me = initialMember();
    S.connected = true;
    saveLocation();
    renderAll();
    document.body.dataset.ready = "1";
  });
  source.addEventListener("msg", (event) => upsert(JSON.parse(event.data)));
  source.addEventListener("commands", (event) => {
    S.commands = JSON.parse(event.data);
    if (S.members.length) renderQuick();
  });
  source.onerror = () => {
    S.connected = false;
    if (S.members.length) renderHeader();
  };
}

function init() {
  S.view = location.hash === "#private" ? "private" : "group";
  $("#send-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#text");
    const text = input.value;
    input.value = "";
    sendText(text);
  });
  $("#modal .modal-ok").addEventListener("click", closeAlert);
  $("#modal").addEventListener("click", (event) => { if (event.target.id === "modal") closeAlert(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" || (event.key === "Enter" && !$("#modal").hidden)) {
      if (!$("#modal").hidden) { event.preventDefault(); closeAlert(); }
    }
  });
  window.addEventListener("hashchange", () => selectView(location.hash === "#private" ? "private" : "group"));
  connect();
}

init();
