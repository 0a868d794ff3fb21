"""The browser's speech synthesis as a recorder, for the TV view's *Read aloud* (the tests
and the screenshots): headless Chromium has no voice, and a real one would only make sound.
Its voices: one from the network (never to be used) and two of the device's own. What the
page asks to say is in ``window.__spoken``; ``window.__noVoice = true`` takes the voices
away."""

SPEECH = """
window.__spoken = [];
const voices = [{name: "Network", lang: "en-GB", localService: false, default: true},
                {name: "Device", lang: "en-GB", localService: true, default: false},
                {name: "Appareil", lang: "fr-FR", localService: true, default: false}];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", {value: {
  getVoices: () => window.__noVoice ? [] : voices,
  speak: (u) => window.__spoken.push({text: u.text, voice: u.voice.name, lang: u.lang}),
  cancel: () => window.__spoken.push("cancel"),
  addEventListener: () => {},
}});
"""
