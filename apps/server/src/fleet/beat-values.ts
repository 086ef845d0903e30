// A node's latest heartbeat, and each card's latest sample, as records made once and overwritten
// by every heartbeat. The registry used to keep the decoded message itself until the next one 2 s
// later: long enough to outlive a scavenge or two, so V8 promoted every message to old space,
// where it died and waited for a full collection (bench:memory, 2026-12-04). Copying the figures
// readers use into these records lets each message die young. A figure is kept as a number, even
// a byte count, so that storing it allocates nothing (V8 overwrites a number field in place); a
// byte count is exact below 2^53 bytes (8 PiB), and every reader turns it into a number anyway.
import type { EngineBuildReport, EngineInstall, GpuSample, Heartbeat } from "@llmgw/proto";
import { sameValue } from "./same-value";

/** A figure the last message left out reads as undefined, as it did on the message. */
function figure(present: number, bit: number, value: number): number | undefined {
  return (present & bit) === 0 ? undefined : value;
}

function bytes(present: number, bit: number, value: number): bigint | undefined {
  return (present & bit) === 0 ? undefined : BigInt(value);
}

/** Each card figure's bit in `CardValues.present`. */
const UTILIZATION = 1;
const MEMORY_USED = 2;
const TEMPERATURE = 4;
const POWER = 8;

/** One card's latest sample, read as the decoded `GpuSample` was. */
export class CardValues {
  private present = 0;
  private utilization = Number.NaN;
  private memoryUsed = Number.NaN;
  private temperature = Number.NaN;
  private power = Number.NaN;

  get utilizationPercent(): number | undefined {
    return figure(this.present, UTILIZATION, this.utilization);
  }
  get memoryBytesUsed(): bigint | undefined {
    return bytes(this.present, MEMORY_USED, this.memoryUsed);
  }
  get temperatureCelsius(): number | undefined {
    return figure(this.present, TEMPERATURE, this.temperature);
  }
  get powerWatts(): number | undefined {
    return figure(this.present, POWER, this.power);
  }

  update(sample: GpuSample): void {
    let present = 0;
    if (sample.utilizationPercent !== undefined) {
      this.utilization = sample.utilizationPercent;
      present |= UTILIZATION;
    }
    if (sample.memoryBytesUsed !== undefined) {
      this.memoryUsed = Number(sample.memoryBytesUsed);
      present |= MEMORY_USED;
    }
    if (sample.temperatureCelsius !== undefined) {
      this.temperature = sample.temperatureCelsius;
      present |= TEMPERATURE;
    }
    if (sample.powerWatts !== undefined) {
      this.power = sample.powerWatts;
      present |= POWER;
    }
    this.present = present;
  }
}

/** Each node figure's bit in `NodeBeat.present`. */
const CPU = 1;
const MEMORY = 2;
const DISK = 4;
const MEMORY_READ = 8;
const RECEIVE = 16;
const TRANSMIT = 32;

/**
 * A node's latest heartbeat, read as the decoded `Heartbeat` was for what readers use. The engine
 * lists are kept as the message's objects only when they changed, which is rare.
 */
export class NodeBeat {
  engineInstalls: EngineInstall[] = [];
  engineBuild: EngineBuildReport | undefined = undefined;
  private present = 0;
  private cpu = Number.NaN;
  private memory = Number.NaN;
  private disk = Number.NaN;
  private memoryRead = Number.NaN;
  private receive = Number.NaN;
  private transmit = Number.NaN;

  get cpuUtilizationPercent(): number | undefined {
    return figure(this.present, CPU, this.cpu);
  }
  get memoryBytesUsed(): bigint | undefined {
    return bytes(this.present, MEMORY, this.memory);
  }
  get diskBytesFree(): bigint | undefined {
    return bytes(this.present, DISK, this.disk);
  }
  get memoryReadBytesPerSecond(): number | undefined {
    return figure(this.present, MEMORY_READ, this.memoryRead);
  }
  get networkReceiveBytesPerSecond(): number | undefined {
    return figure(this.present, RECEIVE, this.receive);
  }
  get networkTransmitBytesPerSecond(): number | undefined {
    return figure(this.present, TRANSMIT, this.transmit);
  }

  update(message: Heartbeat): void {
    this.present = this.hostFigures(message) | this.rateFigures(message);
    if (!sameValue(this.engineInstalls, message.engineInstalls))
      this.engineInstalls = message.engineInstalls;
    if (!sameValue(this.engineBuild, message.engineBuild)) this.engineBuild = message.engineBuild;
  }

  private hostFigures(message: Heartbeat): number {
    let present = 0;
    if (message.cpuUtilizationPercent !== undefined) {
      this.cpu = message.cpuUtilizationPercent;
      present |= CPU;
    }
    if (message.memoryBytesUsed !== undefined) {
      this.memory = Number(message.memoryBytesUsed);
      present |= MEMORY;
    }
    if (message.diskBytesFree !== undefined) {
      this.disk = Number(message.diskBytesFree);
      present |= DISK;
    }
    return present;
  }

  private rateFigures(message: Heartbeat): number {
    let present = 0;
    if (message.memoryReadBytesPerSecond !== undefined) {
      this.memoryRead = message.memoryReadBytesPerSecond;
      present |= MEMORY_READ;
    }
    if (message.networkReceiveBytesPerSecond !== undefined) {
      this.receive = message.networkReceiveBytesPerSecond;
      present |= RECEIVE;
    }
    if (message.networkTransmitBytesPerSecond !== undefined) {
      this.transmit = message.networkTransmitBytesPerSecond;
      present |= TRANSMIT;
    }
    return present;
  }
}
