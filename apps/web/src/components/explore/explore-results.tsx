// The explorer's answer: per model, a row for each GPU class's best node and each CPU node, then
// the model's sentences, translated by their sizing codes (the English text when a code is new).
import type {
  ExploreAnswer,
  ExploreCpuOptionView,
  ExploreGpuOptionView,
  ExploreModelView,
  ExploreNote,
} from "@llmgw/api/schemas";
import { useTranslation } from "react-i18next";

function useNoteText(): (note: ExploreNote) => string {
  const { t } = useTranslation("explore");
  // Sizing codes are `sizing.weights` and so on: the same path in explore.json.
  return (note) => t(note.code as "sizing.weights", { ...note.params, defaultValue: note.text });
}

function GpuRow({ option }: { option: ExploreGpuOptionView }) {
  const { t } = useTranslation("explore");
  const isPlaced = option.verdict === "fits" || option.verdict === "shrunk";
  return (
    <tr data-testid="explore-gpu-row">
      <td>{t("gpuWhere", { gpuClass: option.gpuClass, node: option.bestNode })}</td>
      <td className="numeric">
        {isPlaced
          ? option.cards
          : t("cardsShort", { cards: option.cards, free: option.cardsFreeOnBestNode })}
      </td>
      <td className="numeric">{option.cards > 0 ? option.tensorParallel : "-"}</td>
      <td>{option.expertParallel ? t("yes") : "-"}</td>
      <td className="numeric">{option.contextTokens > 0 ? option.contextTokens : "-"}</td>
      <td>{t(`verdict.${option.verdict}`)}</td>
    </tr>
  );
}

function CpuRow({ option }: { option: ExploreCpuOptionView }) {
  const { t } = useTranslation("explore");
  const verdict = !option.fitsMemory
    ? t("verdict.cpuTooSmall", { memoryGb: option.memoryGb })
    : option.tokensPerSecond === undefined
      ? t("verdict.cpuUnmeasured")
      : t("verdict.cpuFits", { tokensPerSecond: option.tokensPerSecond });
  return (
    <tr data-testid="explore-cpu-row">
      <td>{t("cpuWhere", { node: option.node })}</td>
      <td>-</td>
      <td>-</td>
      <td>-</td>
      <td>-</td>
      <td>{verdict}</td>
    </tr>
  );
}

function ModelCard({ model }: { model: ExploreModelView }) {
  const { t } = useTranslation("explore");
  const noteText = useNoteText();
  const notes = [...model.notes, ...(model.gpu[0]?.notes ?? [])];
  return (
    <section className="panel" data-testid="explore-model" data-model={model.name}>
      <h2>
        {model.name} <span className="muted">{t(`origin.${model.origin}`)}</span>
      </h2>
      <p className="muted">
        {t("summary", { parameters: model.parametersBillions, weightGb: model.weightGb })} ·{" "}
        <span data-testid="explore-fits">{model.fitsNow ? t("fitsNow") : t("fitsNowNot")}</span>
      </p>
      {model.needs ? (
        <p className="form-error" data-testid="explore-needs">
          {noteText(model.needs)}
        </p>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>{t("columns.class")}</th>
            <th>{t("columns.cards")}</th>
            <th>{t("columns.tp")}</th>
            <th>{t("columns.ep")}</th>
            <th>{t("columns.context")}</th>
            <th>{t("columns.verdict")}</th>
          </tr>
        </thead>
        <tbody>
          {model.gpu.map((option) => (
            <GpuRow key={option.gpuClass} option={option} />
          ))}
          {model.cpu.map((option) => (
            <CpuRow key={option.node} option={option} />
          ))}
        </tbody>
      </table>
      <ul className="muted" data-testid="explore-notes">
        {notes.map((note, index) => (
          <li key={`${note.code}-${index}`}>{noteText(note)}</li>
        ))}
      </ul>
    </section>
  );
}

export function ExploreResults({ answer }: { answer: ExploreAnswer }) {
  const { t } = useTranslation("explore");
  if (answer.models.length === 0)
    return (
      <p className="muted" data-testid="explore-empty">
        {t("empty")}
      </p>
    );
  return (
    <>
      {answer.models.map((model) => (
        <ModelCard key={`${model.origin}/${model.name}`} model={model} />
      ))}
    </>
  );
}
