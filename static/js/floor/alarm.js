// The floor dashboard's alarm: a tone when a dealer calls the floor, repeated every 15 s while a
// call is still open. It sounds by default; a floorman who turns it off keeps that choice
// (localStorage). A browser starts audio only after a tap on the page: until then the "allow
// sound" button stays visible (any tap on the page allows it, the button says so).

import { t } from "./texts.js";

const SOUND_KEY = "pokerfloor.floor.sound";
const REPEAT_MS = 15000;

function storedSound() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true; // private mode: the default
  }
}

export class FloorAlarm {
  /** @param {HTMLElement} callsEl the floor-calls panel: its `[data-action="sound"]` toggle and
   * `[data-action="sound-unlock"]` button */
  constructor(callsEl) {
    this.audio = null;
    this.timer = null;
    this.confirmedAt = 0;
    this.on = storedSound();
    this.button = callsEl.querySelector('[data-action="sound"]');
    this.unlock = callsEl.querySelector('[data-action="sound-unlock"]');
    this.button.addEventListener("click", () => {
      this.on = !this.on;
      try {
        localStorage.setItem(SOUND_KEY, this.on ? "on" : "off");
      } catch {
        // private mode: the choice lasts for this page only
      }
      this.allow();
      this.render();
      if (this.on) this.beep();
    });
    // The tap on "allow" plays the tone at once, on its pointerdown: the audio it allows hides the button,
    // and a button hidden before the finger lifts gets no click (a loaded tablet, a slow tap).  A click
    // without a pointerdown (the keyboard) plays it too, once.
    this.unlock.addEventListener("click", () => {
      this.allow();
      this.confirmTone();
    });
    for (const type of ["pointerdown", "keydown"]) {
      document.addEventListener(
        type,
        (event) => {
          this.allow();
          if (type === "pointerdown" && this.unlock.contains(event.target)) this.confirmTone();
        },
        { capture: true },
      );
    }
    if (this.on) this.ensureAudio();
    this.render();
  }

  /** The open calls changed: `fresh` (a new open call) sounds at once; the tone repeats while `open` > 0. */
  calls(open, fresh) {
    if (fresh) this.beep();
    clearInterval(this.timer);
    this.timer = open ? setInterval(() => this.beep(), REPEAT_MS) : null;
  }

  /** The tone that says the sound is allowed, once per tap (a tap's pointerdown and click both ask). */
  confirmTone() {
    const now = performance.now();
    if (this.confirmedAt && now - this.confirmedAt < 1000) return;
    this.confirmedAt = now;
    this.beep();
  }

  beep() {
    const audio = this.audio;
    if (!this.on || !audio) return;
    const now = audio.currentTime;
    for (const [offset, freq] of [[0, 880], [0.25, 660], [0.5, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.3, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, now + offset + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + offset);
      osc.stop(now + offset + 0.22);
    }
  }

  ensureAudio() {
    if (this.audio) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.audio = new Context();
    this.audio.addEventListener("statechange", () => this.render());
  }

  allow() {
    if (!this.on) return;
    this.ensureAudio();
    if (this.audio && this.audio.state !== "running") this.audio.resume().then(() => this.render(), () => this.render());
  }

  render() {
    this.button.setAttribute("aria-pressed", String(this.on));
    this.button.textContent = t(this.on ? "alarm_on" : "alarm_off");
    this.unlock.hidden = !this.on || !this.audio || this.audio.state === "running";
  }
}
