// SVM Lab's acknowledged-event channel: how a component (the data canvas, the keyboard
// shortcuts) sends its events to Python. Prepended to each component's module by
// svmlab.ui.static_assets.component_js; the Python side is svmlab/ui/event_channel.py,
// which sends the contract's constants in the component's data ({ack, batch, state}).
//
// Delivery (exactly once, never re-sent on a timer): every event gets a sequence number
// `seq`, increasing in the browser tab (the clock in ms, or one more than the last number
// this channel knows: its own or Python's ack). The channel keeps the events Python has not
// acknowledged (seq > ack) and, on each new event, sets the component's *state* value
// (contract.state, "events") to that list, the newest contract.batch of them, with
// setStateValue: one rerun request per event. A state value stays in Streamlit's widget
// state and goes with every later rerun request, so an event whose rerun was superseded
// or dropped (fast reruns; a click while the server is down) still reaches Python with
// the next request; Python applies each seq once, in order, and sends back the highest it
// applied as contract.ack. (A trigger value, by contrast, is cleared once sent.)
//
// Each component has a channel of its own; nothing is shared through window globals.

class EventChannel {
  constructor() {
    this.pending = []; // events sent and not acknowledged, in seq order
    this.contract = { ack: 0, batch: 100, state: "events" };
    this.last = 0; // the highest seq this channel has given or seen acknowledged
    this.setState = null;
    this.sends = 0; // setStateValue calls (tests read it through the component's element)
  }

  // New data from Python: the contract and the component's setStateValue. The events
  // the contract's ack covers stay pending until settle() (a component may keep drawing
  // them until it shows what Python made of them).
  update(contract, setStateValue) {
    if (contract) this.contract = Object.assign({}, this.contract, contract);
    if (setStateValue) this.setState = setStateValue;
    this.last = Math.max(this.last, this.ack);
  }

  // Drop the acknowledged events; returns the events still pending.
  settle() {
    const ack = this.ack;
    this.pending = this.pending.filter((e) => e.seq > ack);
    return this.pending;
  }

  get ack() {
    return Number(this.contract.ack || 0);
  }

  nextSeq() {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }

  // Number `ev`, keep it pending and send the pending list (one rerun request).
  send(ev) {
    ev.seq = this.nextSeq();
    this.pending.push(ev);
    this.flush();
    return ev;
  }

  // Set the state value to the pending list (the newest `batch`); false without a
  // component to send through yet.
  flush() {
    if (!this.setState || !this.pending.length) return false;
    this.sends += 1;
    const batch = Math.max(1, Number(this.contract.batch || 1));
    this.setState(this.contract.state || "events", this.pending.slice(-batch));
    return true;
  }
}
