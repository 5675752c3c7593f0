// The smallest workflow: one agent, a bounded answer, the report on disk.
export const meta = { name: "explain", description: "Explain the build system", whenToUse: "when onboarding" };
const r = await agent("Explain how this repository is built. Write the explanation to .explain-reports/build.md.", {
  schema: {
    type: "object",
    properties: {
      status: { type: "string", enum: ["COMPLETE", "FAILED"] },
      report: { type: "string", maxLength: 200 },
    },
    required: ["status", "report"],
  },
});
return { status: r.status, report: r.report };
