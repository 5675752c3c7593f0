export const meta = { name: 'explain-free', description: 'Explains the build, returning the text' }
const answer = await agent('Explain how this repository is built. Write the explanation to .explain-free-reports/build.md.')
return `Build explanation:\n${answer}`
