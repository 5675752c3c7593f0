export const meta = { name: 'summarize', description: 'Summarize the open pull requests' }
const text = await agent(
  'Summarize every open pull request. Write the full summary to .summarize-reports/prs.md, then answer with its first paragraph.',
)
return { status: text ? 'COMPLETE' : 'FAILED', preview: text ? text.slice(0, 300) : '', report: '.summarize-reports/prs.md' }
