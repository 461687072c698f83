/**
 * The built-in profiles' names (`documented`, `observed`); a learned profile (decisions/018) has the
 * name it was given. Below the profiles themselves: a task's blueprint numbers a profile by its name,
 * and the profiles replay tasks.
 */
export type ProfileName = 'documented' | 'observed';

export function isProfileName(name: string): name is ProfileName {
  return name === 'documented' || name === 'observed';
}
