// The first steps of a new group, each done when the group shows it: a folder attached (actors
// need a project root), an agent added, the group started with an agent running.

export type StepId = 'attach' | 'agent' | 'start';

export interface Step {
  readonly id: StepId;
  readonly title: string;
  readonly done: boolean;
}

export interface GroupFacts {
  readonly scopes: number;
  readonly actors: number;
  readonly running: number;
}

export function onboardingSteps(facts: GroupFacts): Step[] {
  return [
    { id: 'attach', title: 'Attach a project folder', done: facts.scopes > 0 },
    { id: 'agent', title: 'Add an agent', done: facts.actors > 0 },
    { id: 'start', title: 'Start the group', done: facts.running > 0 },
  ];
}

/** The step to work on: the first one not done (null when the group is set up). */
export function currentStep(steps: readonly Step[]): StepId | null {
  return steps.find((s) => !s.done)?.id ?? null;
}
